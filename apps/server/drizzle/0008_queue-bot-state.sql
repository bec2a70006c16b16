ALTER TABLE "tickets" ADD COLUMN "queue_option_id" integer;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "awaiting_rating" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_queue_option_id_queue_options_id_fk" FOREIGN KEY ("queue_option_id") REFERENCES "public"."queue_options"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tickets_live_whatsapp_updated_idx" ON "tickets" USING btree ("whatsapp_id","status","updated_at") WHERE "tickets"."status" <> 'closed';