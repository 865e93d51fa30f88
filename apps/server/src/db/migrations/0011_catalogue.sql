CREATE TABLE "catalogue_change_counter" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalogue_changes" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"collection_id" text NOT NULL,
	"resource_id" text NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resource_versions" (
	"resource_id" text NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"md5" text NOT NULL,
	"content_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"replaced_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "update_mails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "preview" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "thumbnail_key" text;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "merged_into" text;--> statement-breakpoint
ALTER TABLE "catalogue_changes" ADD CONSTRAINT "catalogue_changes_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_versions" ADD CONSTRAINT "resource_versions_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalogue_changes_collection_seq_idx" ON "catalogue_changes" USING btree ("collection_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "resource_versions_uq" ON "resource_versions" USING btree ("resource_id","version");