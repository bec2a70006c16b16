-- Hand-written (triggers are not expressible in the Drizzle schema): every change of what the
-- per-node company caches hold (lib/company-cache.ts) sends NOTIFY zapdesk_cache at commit, whoever
-- writes it (any node, any service, plain SQL). Payload '<topic>:<companyId>' or '<topic>:*'; the
-- topic is the trigger's argument. Topics: campaign_settings (the opt-out keyword),
-- campaign_confirmation (a shipping starts awaiting a confirmation), webhooks (a company's active
-- webhooks and its plan's external API flag), settings (a company's settings: whether group
-- messages are ignored).
CREATE OR REPLACE FUNCTION zapdesk_company_cache_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('zapdesk_cache', TG_ARGV[0] || ':*');
  ELSIF TG_TABLE_NAME = 'companies' THEN
    PERFORM pg_notify('zapdesk_cache', TG_ARGV[0] || ':' || NEW.id);
  ELSE
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('zapdesk_cache', TG_ARGV[0] || ':' || OLD.company_id); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('zapdesk_cache', TG_ARGV[0] || ':' || NEW.company_id); END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER campaign_settings_cache_changed AFTER INSERT OR UPDATE OR DELETE ON campaign_settings
  FOR EACH ROW EXECUTE FUNCTION zapdesk_company_cache_changed('campaign_settings');
--> statement-breakpoint
CREATE TRIGGER campaign_shippings_cache_changed
  AFTER INSERT OR UPDATE OF confirmation_requested_at, confirmed_at ON campaign_shippings
  FOR EACH ROW WHEN (NEW.confirmation_requested_at IS NOT NULL AND NEW.confirmed_at IS NULL)
  EXECUTE FUNCTION zapdesk_company_cache_changed('campaign_confirmation');
--> statement-breakpoint
CREATE TRIGGER webhooks_cache_changed AFTER INSERT OR UPDATE OR DELETE ON webhooks
  FOR EACH ROW EXECUTE FUNCTION zapdesk_company_cache_changed('webhooks');
--> statement-breakpoint
CREATE TRIGGER companies_cache_changed AFTER UPDATE OF plan_id ON companies
  FOR EACH ROW WHEN (OLD.plan_id IS DISTINCT FROM NEW.plan_id)
  EXECUTE FUNCTION zapdesk_company_cache_changed('webhooks');
--> statement-breakpoint
CREATE TRIGGER plans_cache_changed AFTER UPDATE OR DELETE ON plans
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_company_cache_changed('webhooks');
--> statement-breakpoint
CREATE TRIGGER settings_cache_changed AFTER INSERT OR UPDATE OR DELETE ON settings
  FOR EACH ROW EXECUTE FUNCTION zapdesk_company_cache_changed('settings');
