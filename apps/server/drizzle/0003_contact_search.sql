CREATE INDEX "contacts_name_trgm_idx" ON "contacts" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_number_trgm_idx" ON "contacts" USING gin ("number" gin_trgm_ops);