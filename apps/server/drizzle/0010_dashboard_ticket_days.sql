-- Dashboard per-day rollup (core sections 3 and 7): per company, company-local day (America/Sao_Paulo,
-- DASHBOARD_TIME_ZONE) and agent (0 = none), the tickets closed that day (count, count with an accepted
-- time, summed seconds accepted -> closed) and the tickets accepted that day (count, summed seconds
-- created -> accepted). GET /api/dashboard sums it for the whole local days of a period and reads the
-- tickets themselves only for the partial days at its ends, so its cost no longer grows with the tickets
-- in the period. Row triggers on tickets keep it exact: a ticket's old contribution (if it had one) is
-- taken off and its new one added whenever status, closed_at, accepted_at, created_at, user_id or
-- company_id change (closing, accepting, reopening, transferring, deleting, a user deleted). Updates that
-- touch none of these (messages: last_message, unread_messages, updated_at) do not fire them.
-- Custom migration: tickets' schema file belongs to another module, and the triggers are SQL.
CREATE TABLE IF NOT EXISTS "dashboard_ticket_days" (
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE cascade,
	"day" date NOT NULL,
	"user_id" integer NOT NULL,
	"closed" integer DEFAULT 0 NOT NULL,
	"support_count" integer DEFAULT 0 NOT NULL,
	"support_seconds" numeric DEFAULT 0 NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"wait_seconds" numeric DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_ticket_days_pkey" PRIMARY KEY ("company_id","day","user_id")
) WITH (fillfactor = 70);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dashboard_ticket_days_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Take the old row's contribution off (its rollup rows exist: they were added with it).
  IF TG_OP <> 'INSERT' THEN
    IF OLD.status = 'closed' AND OLD.closed_at IS NOT NULL THEN
      UPDATE dashboard_ticket_days d
      SET closed = d.closed - 1,
        support_count = d.support_count - (OLD.accepted_at IS NOT NULL)::int,
        support_seconds = d.support_seconds - coalesce(extract(epoch FROM OLD.closed_at - OLD.accepted_at), 0)
      WHERE d.company_id = OLD.company_id
        AND d.day = (OLD.closed_at AT TIME ZONE 'America/Sao_Paulo')::date
        AND d.user_id = coalesce(OLD.user_id, 0);
    END IF;
    IF OLD.accepted_at IS NOT NULL THEN
      UPDATE dashboard_ticket_days d
      SET accepted = d.accepted - 1,
        wait_seconds = d.wait_seconds - extract(epoch FROM OLD.accepted_at - OLD.created_at)
      WHERE d.company_id = OLD.company_id
        AND d.day = (OLD.accepted_at AT TIME ZONE 'America/Sao_Paulo')::date
        AND d.user_id = coalesce(OLD.user_id, 0);
    END IF;
  END IF;
  -- Add the new row's contribution.
  IF TG_OP <> 'DELETE' THEN
    IF NEW.status = 'closed' AND NEW.closed_at IS NOT NULL THEN
      INSERT INTO dashboard_ticket_days AS d (company_id, day, user_id, closed, support_count, support_seconds)
      VALUES (NEW.company_id, (NEW.closed_at AT TIME ZONE 'America/Sao_Paulo')::date, coalesce(NEW.user_id, 0), 1,
        (NEW.accepted_at IS NOT NULL)::int, coalesce(extract(epoch FROM NEW.closed_at - NEW.accepted_at), 0))
      ON CONFLICT (company_id, day, user_id) DO UPDATE
      SET closed = d.closed + 1,
        support_count = d.support_count + excluded.support_count,
        support_seconds = d.support_seconds + excluded.support_seconds;
    END IF;
    IF NEW.accepted_at IS NOT NULL THEN
      INSERT INTO dashboard_ticket_days AS d (company_id, day, user_id, accepted, wait_seconds)
      VALUES (NEW.company_id, (NEW.accepted_at AT TIME ZONE 'America/Sao_Paulo')::date, coalesce(NEW.user_id, 0), 1,
        extract(epoch FROM NEW.accepted_at - NEW.created_at))
      ON CONFLICT (company_id, day, user_id) DO UPDATE
      SET accepted = d.accepted + 1, wait_seconds = d.wait_seconds + excluded.wait_seconds;
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dashboard_ticket_days_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dashboard_ticket_days;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "dashboard_ticket_days_insert" ON "tickets";--> statement-breakpoint
CREATE TRIGGER "dashboard_ticket_days_insert" AFTER INSERT ON "tickets" FOR EACH ROW
	WHEN (NEW.closed_at IS NOT NULL OR NEW.accepted_at IS NOT NULL)
	EXECUTE FUNCTION "dashboard_ticket_days_sync"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "dashboard_ticket_days_update" ON "tickets";--> statement-breakpoint
CREATE TRIGGER "dashboard_ticket_days_update"
	AFTER UPDATE OF "company_id", "status", "user_id", "created_at", "accepted_at", "closed_at" ON "tickets" FOR EACH ROW
	WHEN ((OLD.closed_at IS NOT NULL OR OLD.accepted_at IS NOT NULL OR NEW.closed_at IS NOT NULL OR NEW.accepted_at IS NOT NULL)
		AND (OLD.company_id IS DISTINCT FROM NEW.company_id OR OLD.status IS DISTINCT FROM NEW.status
			OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.created_at IS DISTINCT FROM NEW.created_at
			OR OLD.accepted_at IS DISTINCT FROM NEW.accepted_at OR OLD.closed_at IS DISTINCT FROM NEW.closed_at))
	EXECUTE FUNCTION "dashboard_ticket_days_sync"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "dashboard_ticket_days_delete" ON "tickets";--> statement-breakpoint
CREATE TRIGGER "dashboard_ticket_days_delete" AFTER DELETE ON "tickets" FOR EACH ROW
	WHEN (OLD.closed_at IS NOT NULL OR OLD.accepted_at IS NOT NULL)
	EXECUTE FUNCTION "dashboard_ticket_days_sync"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "dashboard_ticket_days_truncate" ON "tickets";--> statement-breakpoint
CREATE TRIGGER "dashboard_ticket_days_truncate" AFTER TRUNCATE ON "tickets" FOR EACH STATEMENT
	EXECUTE FUNCTION "dashboard_ticket_days_truncate"();--> statement-breakpoint
-- Backfill after the triggers exist: creating them holds a lock on tickets that keeps writers out until
-- the migration's transaction commits, so no change falls between this snapshot and the triggers.
DELETE FROM "dashboard_ticket_days";--> statement-breakpoint
INSERT INTO "dashboard_ticket_days" ("company_id", "day", "user_id", "closed", "support_count", "support_seconds", "accepted", "wait_seconds")
SELECT company_id, day, user_id, sum(closed), sum(support_count), sum(support_seconds), sum(accepted), sum(wait_seconds)
FROM (
	SELECT company_id, (closed_at AT TIME ZONE 'America/Sao_Paulo')::date AS day, coalesce(user_id, 0) AS user_id,
		1 AS closed, (accepted_at IS NOT NULL)::int AS support_count,
		coalesce(extract(epoch FROM closed_at - accepted_at), 0) AS support_seconds, 0 AS accepted, 0 AS wait_seconds
	FROM tickets WHERE status = 'closed' AND closed_at IS NOT NULL
	UNION ALL
	SELECT company_id, (accepted_at AT TIME ZONE 'America/Sao_Paulo')::date, coalesce(user_id, 0),
		0, 0, 0, 1, extract(epoch FROM accepted_at - created_at)
	FROM tickets WHERE accepted_at IS NOT NULL
) x
GROUP BY company_id, day, user_id;
