DROP INDEX "tickets_company_status_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_company_updated_idx";--> statement-breakpoint
CREATE INDEX "tickets_company_status_updated_idx" ON "tickets" USING btree ("company_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "tickets_company_updated_idx" ON "tickets" USING btree ("company_id","updated_at","id");