CREATE SEQUENCE "public"."evm_address_index_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE TABLE "evm_blocks" (
	"chain_id" integer NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "evm_blocks_chain_id_number_pk" PRIMARY KEY("chain_id","number")
);
--> statement-breakpoint
CREATE TABLE "evm_deposit_addresses" (
	"hd_index" integer PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"bill_id" text NOT NULL,
	"chain_id" integer NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"swept_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "evm_payouts" (
	"payout_id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"token" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"nonce" integer NOT NULL,
	"signed_tx" text NOT NULL,
	"tx_hash" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"block_number" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evm_scan_state" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"last_block" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evm_transfers" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"token" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"bill_id" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "evm_transfers_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "nowpayments_payments" (
	"payment_id" text PRIMARY KEY NOT NULL,
	"bill_id" text NOT NULL,
	"pay_currency" text NOT NULL,
	"pay_address" text NOT NULL,
	"status" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "nowpayments_payouts" (
	"payout_id" text PRIMARY KEY NOT NULL,
	"batch_id" text,
	"withdrawal_id" text,
	"status" text NOT NULL,
	"hash" text,
	"error" text,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "evm_deposit_addresses_address_uq" ON "evm_deposit_addresses" USING btree ("address");--> statement-breakpoint
CREATE UNIQUE INDEX "evm_deposit_addresses_bill_uq" ON "evm_deposit_addresses" USING btree ("bill_id");--> statement-breakpoint
CREATE INDEX "evm_deposit_addresses_chain_created_idx" ON "evm_deposit_addresses" USING btree ("chain_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "evm_payouts_live_nonce_uq" ON "evm_payouts" USING btree ("chain_id","from_address","nonce") WHERE "evm_payouts"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "evm_payouts_status_idx" ON "evm_payouts" USING btree ("status");--> statement-breakpoint
CREATE INDEX "evm_transfers_status_idx" ON "evm_transfers" USING btree ("chain_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "nowpayments_payments_bill_uq" ON "nowpayments_payments" USING btree ("bill_id");--> statement-breakpoint
CREATE INDEX "nowpayments_payments_status_idx" ON "nowpayments_payments" USING btree ("status","expires_at");