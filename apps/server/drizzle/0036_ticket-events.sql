CREATE TABLE "ticket_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"queue_id" integer,
	"whatsapp_id" integer,
	"seconds" integer,
	CONSTRAINT "ticket_events_kind_check" CHECK ("ticket_events"."kind" in ('created', 'assigned', 'first_reply', 'resolved', 'reopened', 'transferred'))
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "use_reports" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Covering: the reports read the events of a period from the index alone (no heap visit per event).
-- Drizzle's index builder cannot write INCLUDE; the schema declares the same key.
CREATE INDEX "ticket_events_company_kind_at_idx" ON "ticket_events" USING btree ("company_id","kind","at") INCLUDE ("seconds","user_id","queue_id","whatsapp_id","ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_events_ticket_company_idx" ON "ticket_events" USING btree ("ticket_id","company_id");--> statement-breakpoint
-- Events of ticket changes, written by the statement that changes the ticket (docs/reports.md).
-- Inserts: one multi-row INSERT per statement from its transition table (the inbound pipeline's batched
-- statement creates many tickets at once).
CREATE OR REPLACE FUNCTION "ticket_events_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_events (company_id, ticket_id, kind, at, user_id, queue_id, whatsapp_id, seconds)
  SELECT n.company_id, n.id, k.kind, k.at, k.user_id, n.queue_id, n.whatsapp_id, k.seconds
  FROM new_tickets n
  CROSS JOIN LATERAL (VALUES
    (1, 'created', n.created_at, NULL::int, NULL::int, true),
    (2, 'assigned', coalesce(n.accepted_at, n.created_at), n.user_id,
      greatest(0, extract(epoch FROM coalesce(n.accepted_at, n.created_at) - n.created_at))::int,
      n.status <> 'pending' AND n.user_id IS NOT NULL),
    (3, 'resolved', coalesce(n.closed_at, n.created_at), n.user_id,
      greatest(0, extract(epoch FROM coalesce(n.closed_at, n.created_at) - n.created_at))::int,
      n.status = 'closed')
  ) AS k(ord, kind, at, user_id, seconds, happened)
  WHERE k.happened
  ORDER BY n.id, k.ord;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Updates: only rows whose status, agent or queue changed call it (the trigger's WHEN), so the
-- previews and unread counts the inbound pipeline writes never do.
CREATE OR REPLACE FUNCTION "ticket_events_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  opened timestamptz;
  first_assignment boolean;
BEGIN
  IF OLD.status = 'closed' AND NEW.status <> 'closed' THEN
    INSERT INTO ticket_events (company_id, ticket_id, kind, at, user_id, queue_id, whatsapp_id)
    VALUES (NEW.company_id, NEW.id, 'reopened', now(), NEW.user_id, NEW.queue_id, NEW.whatsapp_id);
    opened := now();
  ELSE
    SELECT e.at INTO opened FROM ticket_events e
    WHERE e.ticket_id = NEW.id AND e.company_id = NEW.company_id AND e.kind IN ('created', 'reopened')
    ORDER BY e.id DESC LIMIT 1;
    opened := coalesce(opened, NEW.created_at);
  END IF;
  IF NEW.status = 'closed' AND OLD.status <> 'closed' THEN
    INSERT INTO ticket_events (company_id, ticket_id, kind, at, user_id, queue_id, whatsapp_id, seconds)
    VALUES (NEW.company_id, NEW.id, 'resolved', now(), NEW.user_id, NEW.queue_id, NEW.whatsapp_id,
      greatest(0, extract(epoch FROM now() - opened))::int);
  ELSIF NEW.status = 'open' AND OLD.status <> 'open' AND NEW.user_id IS NOT NULL THEN
    first_assignment := NOT EXISTS (SELECT 1 FROM ticket_events e
      WHERE e.ticket_id = NEW.id AND e.company_id = NEW.company_id AND e.kind = 'assigned' AND e.at >= opened);
    INSERT INTO ticket_events (company_id, ticket_id, kind, at, user_id, queue_id, whatsapp_id, seconds)
    VALUES (NEW.company_id, NEW.id, 'assigned', now(), NEW.user_id, NEW.queue_id, NEW.whatsapp_id,
      CASE WHEN first_assignment THEN greatest(0, extract(epoch FROM now() - opened))::int END);
  ELSIF NEW.status <> 'closed' AND OLD.status <> 'closed'
    AND ((OLD.user_id IS NOT NULL AND OLD.user_id IS DISTINCT FROM NEW.user_id)
      OR (OLD.queue_id IS NOT NULL AND OLD.queue_id IS DISTINCT FROM NEW.queue_id)) THEN
    INSERT INTO ticket_events (company_id, ticket_id, kind, at, user_id, queue_id, whatsapp_id)
    VALUES (NEW.company_id, NEW.id, 'transferred', now(), NEW.user_id, NEW.queue_id, NEW.whatsapp_id);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "ticket_events_insert" ON "tickets";--> statement-breakpoint
CREATE TRIGGER "ticket_events_insert" AFTER INSERT ON "tickets"
	REFERENCING NEW TABLE AS new_tickets FOR EACH STATEMENT
	EXECUTE FUNCTION "ticket_events_on_insert"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "ticket_events_update" ON "tickets";--> statement-breakpoint
CREATE TRIGGER "ticket_events_update"
	AFTER UPDATE OF "status", "user_id", "queue_id" ON "tickets" FOR EACH ROW
	WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.user_id IS DISTINCT FROM NEW.user_id
		OR OLD.queue_id IS DISTINCT FROM NEW.queue_id)
	EXECUTE FUNCTION "ticket_events_on_update"();--> statement-breakpoint
-- The events of tickets that have none, derived from the tickets and their agents' messages:
-- created, assigned (accepted_at), first_reply (the first message an agent sent since created_at),
-- resolved (closed ones). Idempotent: a ticket with any event is left alone. `npm run reports:backfill`
-- calls it again. @returns the number of events added.
CREATE OR REPLACE FUNCTION "ticket_events_backfill"() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  added integer;
BEGIN
  WITH missing AS (
    SELECT t.id, t.company_id, t.user_id, t.queue_id, t.whatsapp_id, t.status, t.created_at, t.accepted_at, t.closed_at
    FROM tickets t
    WHERE NOT EXISTS (SELECT 1 FROM ticket_events e WHERE e.ticket_id = t.id)
  ), replies AS (
    SELECT DISTINCT ON (m.ticket_id) m.ticket_id, m.created_at, m.user_id
    FROM messages m JOIN missing t ON t.id = m.ticket_id
    WHERE m.from_me AND m.user_id IS NOT NULL AND m.created_at >= t.created_at
    ORDER BY m.ticket_id, m.created_at, m.id
  )
  INSERT INTO ticket_events (company_id, ticket_id, kind, at, user_id, queue_id, whatsapp_id, seconds)
  SELECT t.company_id, t.id, k.kind, k.at, k.user_id, t.queue_id, t.whatsapp_id, k.seconds
  FROM missing t
  LEFT JOIN replies r ON r.ticket_id = t.id
  CROSS JOIN LATERAL (VALUES
    (1, 'created', t.created_at, NULL::int, NULL::int, true),
    (2, 'assigned', t.accepted_at, t.user_id, greatest(0, extract(epoch FROM t.accepted_at - t.created_at))::int,
      t.accepted_at IS NOT NULL),
    (3, 'first_reply', r.created_at, r.user_id, greatest(0, extract(epoch FROM r.created_at - t.created_at))::int,
      r.ticket_id IS NOT NULL),
    (4, 'resolved', t.closed_at, t.user_id, greatest(0, extract(epoch FROM t.closed_at - t.created_at))::int,
      t.status = 'closed' AND t.closed_at IS NOT NULL)
  ) AS k(ord, kind, at, user_id, seconds, happened)
  WHERE k.happened
  ORDER BY k.at, t.id, k.ord;
  GET DIAGNOSTICS added = ROW_COUNT;
  RETURN added;
END
$$;--> statement-breakpoint
SELECT "ticket_events_backfill"();
