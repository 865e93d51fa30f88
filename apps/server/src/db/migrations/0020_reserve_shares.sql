ALTER TABLE "reserve_leaves" DROP CONSTRAINT "reserve_leaves_publication_id_user_id_pk";--> statement-breakpoint
ALTER TABLE "reserve_leaves" ADD CONSTRAINT "reserve_leaves_publication_id_leaf_index_pk" PRIMARY KEY("publication_id","leaf_index");--> statement-breakpoint
CREATE INDEX "reserve_leaves_user_idx" ON "reserve_leaves" USING btree ("publication_id","user_id");