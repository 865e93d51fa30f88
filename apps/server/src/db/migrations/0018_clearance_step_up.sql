ALTER TABLE "sessions" ADD COLUMN "stepped_up_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "quoted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "clears_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cleared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "report_details" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "report_outcome" text;--> statement-breakpoint
CREATE INDEX "orders_clearance_due_idx" ON "orders" USING btree ("clears_at") WHERE "orders"."cleared_at" is null and "orders"."clears_at" is not null and "orders"."status" = 'OrderStatusPaid';--> statement-breakpoint
-- Every user gets a `pending` ledger account beside `available` and `frozen` (sale proceeds in their
-- holding period, docs/decisions/0045-clearance-and-step-up.md); new users get it at registration.
INSERT INTO "ledger_accounts" ("id", "user_id", "kind")
SELECT gen_random_uuid()::text, a."user_id", 'pending' FROM "ledger_accounts" a
WHERE a."kind" = 'available' AND a."user_id" IS NOT NULL
ON CONFLICT DO NOTHING;
