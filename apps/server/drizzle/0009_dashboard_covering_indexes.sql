-- Dashboard counters and attendants in one pass (core sections 3 and 7): covering indexes, company_id
-- first, so that the period scans are index-only (no heap visit per ticket or contact). They replace
-- the plain (company_id, closed_at), (company_id, accepted_at) and (company_id, created_at) indexes of
-- 0007 on the same keys, which serve nothing these do not. Custom migration: Drizzle's index builder
-- cannot write INCLUDE, and these tables' schema files belong to other modules.
CREATE INDEX IF NOT EXISTS "tickets_company_closed_at_cover_idx" ON "tickets" USING btree ("company_id","closed_at") INCLUDE ("status","accepted_at","user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tickets_company_accepted_at_cover_idx" ON "tickets" USING btree ("company_id","accepted_at") INCLUDE ("created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contacts_company_created_at_cover_idx" ON "contacts" USING btree ("company_id","created_at") INCLUDE ("is_group");--> statement-breakpoint
DROP INDEX IF EXISTS "tickets_company_closed_at_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "tickets_company_accepted_at_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "contacts_company_created_at_idx";
