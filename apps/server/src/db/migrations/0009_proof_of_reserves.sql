CREATE TABLE "reserve_leaves" (
	"publication_id" text NOT NULL,
	"user_id" text NOT NULL,
	"leaf_index" integer NOT NULL,
	"salt" text NOT NULL,
	"balance" bigint NOT NULL,
	CONSTRAINT "reserve_leaves_publication_id_user_id_pk" PRIMARY KEY("publication_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "reserve_nodes" (
	"publication_id" text NOT NULL,
	"level" integer NOT NULL,
	"node_index" integer NOT NULL,
	"hash" text NOT NULL,
	"sum" bigint NOT NULL,
	CONSTRAINT "reserve_nodes_publication_id_level_node_index_pk" PRIMARY KEY("publication_id","level","node_index")
);
--> statement-breakpoint
CREATE TABLE "reserve_publications" (
	"id" text PRIMARY KEY NOT NULL,
	"root_hash" text NOT NULL,
	"total" bigint NOT NULL,
	"user_count" integer NOT NULL,
	"depth" integer NOT NULL,
	"reserves" jsonb NOT NULL,
	"points_per_usd" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reserve_leaves" ADD CONSTRAINT "reserve_leaves_publication_id_reserve_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."reserve_publications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reserve_nodes" ADD CONSTRAINT "reserve_nodes_publication_id_reserve_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."reserve_publications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reserve_publications_created_idx" ON "reserve_publications" USING btree ("created_at");