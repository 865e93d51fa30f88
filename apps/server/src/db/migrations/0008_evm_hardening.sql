DROP INDEX "evm_payouts_live_nonce_uq";--> statement-breakpoint
ALTER TABLE "evm_payouts" ALTER COLUMN "nonce" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "evm_payouts" ALTER COLUMN "signed_tx" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "evm_payouts" ALTER COLUMN "tx_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "evm_payouts" ADD COLUMN "kind" text DEFAULT 'payout' NOT NULL;--> statement-breakpoint
ALTER TABLE "evm_payouts" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "evm_payouts" ADD COLUMN "signed_block" bigint;--> statement-breakpoint
ALTER TABLE "evm_payouts" ADD COLUMN "stuck_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "evm_payouts" ADD COLUMN "blocked_by_nonce" integer;--> statement-breakpoint
ALTER TABLE "evm_transfers" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "evm_transfers" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "evm_transfers" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "evm_payouts_live_filler_uq" ON "evm_payouts" USING btree ("chain_id","from_address","nonce") WHERE "evm_payouts"."status" <> 'failed' and "evm_payouts"."kind" = 'filler';--> statement-breakpoint
CREATE UNIQUE INDEX "evm_payouts_live_nonce_uq" ON "evm_payouts" USING btree ("chain_id","from_address","nonce") WHERE "evm_payouts"."status" <> 'failed' and "evm_payouts"."kind" = 'payout';