CREATE SEQUENCE "public"."tron_address_index_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE TABLE "tron_blocks" (
	"number" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tron_deposit_addresses" (
	"hd_index" integer PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"bill_id" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"swept_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tron_payouts" (
	"payout_id" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text NOT NULL,
	"txid" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"block_number" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tron_scan_state" (
	"cursor" text PRIMARY KEY NOT NULL,
	"last_block" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tron_sweeps" (
	"id" text PRIMARY KEY NOT NULL,
	"hd_index" integer NOT NULL,
	"address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text NOT NULL,
	"fund_txid" text,
	"fund_sun" bigint,
	"sweep_txid" text,
	"fee_sun" bigint,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tron_transfers" (
	"txid" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"solid" boolean DEFAULT false NOT NULL,
	"token" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"bill_id" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "tron_transfers_txid_log_index_pk" PRIMARY KEY("txid","log_index")
);
--> statement-breakpoint
CREATE TABLE "tron_txs" (
	"txid" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"signed_tx" text NOT NULL,
	"ref_block" bigint NOT NULL,
	"expiration" bigint NOT NULL,
	"fee_limit_sun" bigint,
	"status" text NOT NULL,
	"result" text,
	"block_number" bigint,
	"fee_sun" bigint,
	"energy_used" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "tron_deposit_addresses_address_uq" ON "tron_deposit_addresses" USING btree ("address");--> statement-breakpoint
CREATE UNIQUE INDEX "tron_deposit_addresses_bill_uq" ON "tron_deposit_addresses" USING btree ("bill_id");--> statement-breakpoint
CREATE INDEX "tron_deposit_addresses_created_idx" ON "tron_deposit_addresses" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "tron_payouts_status_idx" ON "tron_payouts" USING btree ("status");--> statement-breakpoint
CREATE INDEX "tron_sweeps_address_idx" ON "tron_sweeps" USING btree ("address");--> statement-breakpoint
CREATE INDEX "tron_transfers_status_idx" ON "tron_transfers" USING btree ("status","solid");--> statement-breakpoint
CREATE INDEX "tron_transfers_bill_idx" ON "tron_transfers" USING btree ("bill_id");--> statement-breakpoint
CREATE INDEX "tron_txs_ref_idx" ON "tron_txs" USING btree ("kind","ref");--> statement-breakpoint
CREATE UNIQUE INDEX "tron_txs_live_payout_uq" ON "tron_txs" USING btree ("ref") WHERE "tron_txs"."kind" = 'payout' and "tron_txs"."status" in ('signed', 'broadcast', 'mined');