CREATE TABLE "nowpayments_reviews" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"gateway_id" text NOT NULL,
	"bill_id" text,
	"reason" text NOT NULL,
	"detail" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deposit_payments" ADD COLUMN "usd_price" numeric(38, 18);--> statement-breakpoint
ALTER TABLE "nowpayments_payouts" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "nowpayments_payouts" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "nowpayments_reviews_uq" ON "nowpayments_reviews" USING btree ("kind","gateway_id","reason");