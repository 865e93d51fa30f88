CREATE TABLE "deposit_bills" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"amount_usd" bigint NOT NULL,
	"pay_currency" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"extra_id" text,
	"currency_amount" numeric(38, 18) NOT NULL,
	"usd_price" numeric(38, 18) NOT NULL,
	"points_per_usd" numeric(38, 18) NOT NULL,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"paid_currency_amount" numeric(38, 18) DEFAULT '0' NOT NULL,
	"credited" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"bill_id" text NOT NULL,
	"payment_ref" text NOT NULL,
	"currency_amount" numeric(38, 18) NOT NULL,
	"credited" bigint NOT NULL,
	"ledger_transaction_id" text,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_payouts" (
	"payout_id" text PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"currency_amount" numeric(38, 18) NOT NULL,
	"status" text NOT NULL,
	"txid" text,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdraw_bills" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"amount_usd" bigint NOT NULL,
	"fee_usd" bigint NOT NULL,
	"fee_points" bigint NOT NULL,
	"currency" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"currency_amount" numeric(38, 18) NOT NULL,
	"status" text NOT NULL,
	"payout_state" text,
	"payout_attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"txid" text,
	"failure_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdraw_password_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deposit_bills" ADD CONSTRAINT "deposit_bills_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_payments" ADD CONSTRAINT "deposit_payments_bill_id_deposit_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."deposit_bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_bills" ADD CONSTRAINT "withdraw_bills_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_password_failures" ADD CONSTRAINT "withdraw_password_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deposit_bills_user_created_idx" ON "deposit_bills" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "deposit_bills_status_expires_idx" ON "deposit_bills" USING btree ("status","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_payments_ref_uq" ON "deposit_payments" USING btree ("payment_ref");--> statement-breakpoint
CREATE INDEX "deposit_payments_bill_idx" ON "deposit_payments" USING btree ("bill_id");--> statement-breakpoint
CREATE INDEX "withdraw_bills_user_created_idx" ON "withdraw_bills" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdraw_bills_payout_idx" ON "withdraw_bills" USING btree ("status","payout_state","lease_until");--> statement-breakpoint
CREATE INDEX "withdraw_bills_status_expires_idx" ON "withdraw_bills" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "withdraw_password_failures_user_idx" ON "withdraw_password_failures" USING btree ("user_id","created_at");