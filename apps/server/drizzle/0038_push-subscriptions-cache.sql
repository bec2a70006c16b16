-- Hand-written (triggers are not expressible in the Drizzle schema): adding or removing a push
-- subscription sends NOTIFY zapdesk_cache '<push_subscriptions>:<companyId>' at commit (function of
-- migration 0028), so every node's "does this company have subscriptions" cache
-- (modules/push/push-notifier.ts) drops that company's entry.
CREATE TRIGGER push_subscriptions_cache_changed AFTER INSERT OR UPDATE OR DELETE ON push_subscriptions
  FOR EACH ROW EXECUTE FUNCTION zapdesk_company_cache_changed('push_subscriptions');
