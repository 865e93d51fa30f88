ALTER TABLE "webhook_endpoints" ADD COLUMN "signing" text DEFAULT 'hmac' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "signing_key_sealed" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "public_key" text;