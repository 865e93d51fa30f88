CREATE TABLE "collection_licences" (
	"collection_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"max_activations" integer
);
--> statement-breakpoint
CREATE TABLE "discount_buyer_uses" (
	"code_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"order_id" text NOT NULL,
	CONSTRAINT "discount_buyer_uses_code_id_buyer_id_pk" PRIMARY KEY("code_id","buyer_id")
);
--> statement-breakpoint
CREATE TABLE "discount_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"seller_id" text NOT NULL,
	"collection_id" text,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"max_uses" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"once_per_buyer" boolean DEFAULT false NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "licence_activations" (
	"key_id" text NOT NULL,
	"instance" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "licence_activations_key_id_instance_pk" PRIMARY KEY("key_id","instance")
);
--> statement-breakpoint
CREATE TABLE "licence_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"order_id" text NOT NULL,
	"collection_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "list_price" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_code_id" text;--> statement-breakpoint
ALTER TABLE "collection_licences" ADD CONSTRAINT "collection_licences_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_buyer_uses" ADD CONSTRAINT "discount_buyer_uses_code_id_discount_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."discount_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_buyer_uses" ADD CONSTRAINT "discount_buyer_uses_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_buyer_uses" ADD CONSTRAINT "discount_buyer_uses_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_activations" ADD CONSTRAINT "licence_activations_key_id_licence_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."licence_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_keys" ADD CONSTRAINT "licence_keys_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_keys" ADD CONSTRAINT "licence_keys_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_keys" ADD CONSTRAINT "licence_keys_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_seller_code_uq" ON "discount_codes" USING btree ("seller_id","code");--> statement-breakpoint
CREATE INDEX "discount_codes_collection_idx" ON "discount_codes" USING btree ("collection_id");--> statement-breakpoint
CREATE UNIQUE INDEX "licence_keys_key_uq" ON "licence_keys" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "licence_keys_order_uq" ON "licence_keys" USING btree ("order_id");