-- Hand-written (triggers are not expressible in the Drizzle schema): every change of what the auth
-- guard caches per node (users, their queues, sessions, companies, plans) sends NOTIFY zapdesk_auth
-- at commit, whoever writes it (any node, any service, plain SQL). Payload: 'u:<userId>',
-- 'c:<companyId>' or '*' (everything). See apps/server/src/modules/auth/auth-cache.ts.
CREATE OR REPLACE FUNCTION zapdesk_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('zapdesk_auth', 'u:' || OLD.id); END IF;
  ELSIF TG_TABLE_NAME = 'companies' THEN
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('zapdesk_auth', 'c:' || OLD.id); END IF;
  ELSIF TG_TABLE_NAME = 'plans' THEN
    PERFORM pg_notify('zapdesk_auth', '*');
  ELSE
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('zapdesk_auth', 'u:' || OLD.user_id); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('zapdesk_auth', 'u:' || NEW.user_id); END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_auth_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION zapdesk_auth_changed();
--> statement-breakpoint
CREATE TRIGGER user_queues_auth_changed AFTER INSERT OR UPDATE OR DELETE ON user_queues
  FOR EACH ROW EXECUTE FUNCTION zapdesk_auth_changed();
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_auth_changed AFTER UPDATE OR DELETE ON refresh_tokens
  FOR EACH ROW EXECUTE FUNCTION zapdesk_auth_changed();
--> statement-breakpoint
CREATE TRIGGER companies_auth_changed AFTER UPDATE OR DELETE ON companies
  FOR EACH ROW EXECUTE FUNCTION zapdesk_auth_changed();
--> statement-breakpoint
CREATE TRIGGER plans_auth_changed AFTER UPDATE OR DELETE ON plans
  FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_auth_changed();
