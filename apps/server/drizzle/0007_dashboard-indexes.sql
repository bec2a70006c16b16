-- Dashboard aggregates (core section 3): tickets by closed, accepted and created time, contacts by
-- created time, each with company_id first. Custom migration: these tables' schema files belong to
-- other modules.
CREATE INDEX IF NOT EXISTS "tickets_company_closed_at_idx" ON "tickets" USING btree ("company_id","closed_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tickets_company_accepted_at_idx" ON "tickets" USING btree ("company_id","accepted_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tickets_company_created_at_idx" ON "tickets" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contacts_company_created_at_idx" ON "contacts" USING btree ("company_id","created_at");
