DROP INDEX "ticket_tags_company_tag_idx";--> statement-breakpoint
DROP INDEX "tickets_company_queue_idx";--> statement-breakpoint
CREATE INDEX "tickets_company_whatsapp_idx" ON "tickets" USING btree ("company_id","whatsapp_id","id");--> statement-breakpoint
CREATE INDEX "ticket_tags_company_tag_idx" ON "ticket_tags" USING btree ("company_id","tag_id","ticket_id");--> statement-breakpoint
CREATE INDEX "tickets_company_queue_idx" ON "tickets" USING btree ("company_id","queue_id","id");