CREATE SEQUENCE "public"."ton_query_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "ton_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet" text NOT NULL,
	"seqno" integer NOT NULL,
	"boc" text NOT NULL,
	"msg_hash" text NOT NULL,
	"valid_until" integer NOT NULL,
	"after_lt" bigint NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	"tx_lt" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ton_deposits" (
	"bill_id" text PRIMARY KEY NOT NULL,
	"memo" text NOT NULL,
	"code" text NOT NULL,
	"deposit_address" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ton_payouts" (
	"payout_id" text PRIMARY KEY NOT NULL,
	"query_id" bigint NOT NULL,
	"wallet" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"memo" text NOT NULL,
	"status" text NOT NULL,
	"batch_id" text,
	"batches" integer DEFAULT 0 NOT NULL,
	"msg_lt" bigint,
	"jetton_tx_lt" bigint,
	"forward_lt" bigint,
	"dest_wallet" text,
	"txid" text,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ton_scan_state" (
	"account" text PRIMARY KEY NOT NULL,
	"last_lt" bigint NOT NULL,
	"last_hash" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ton_transfers" (
	"account" text NOT NULL,
	"tx_hash" text NOT NULL,
	"lt" bigint NOT NULL,
	"tx_time" integer NOT NULL,
	"source_wallet" text NOT NULL,
	"from_owner" text,
	"amount" numeric(78, 0) NOT NULL,
	"memo" text,
	"bill_id" text,
	"status" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "ton_transfers_tx_hash_lt_pk" PRIMARY KEY("tx_hash","lt")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ton_batches_live_uq" ON "ton_batches" USING btree ("wallet") WHERE "ton_batches"."status" = 'signed';--> statement-breakpoint
CREATE UNIQUE INDEX "ton_deposits_memo_uq" ON "ton_deposits" USING btree ("memo");--> statement-breakpoint
CREATE UNIQUE INDEX "ton_payouts_query_uq" ON "ton_payouts" USING btree ("wallet","query_id");--> statement-breakpoint
CREATE INDEX "ton_payouts_status_idx" ON "ton_payouts" USING btree ("wallet","status");--> statement-breakpoint
CREATE INDEX "ton_transfers_status_idx" ON "ton_transfers" USING btree ("account","status");