CREATE TABLE "ticket_slas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"target" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"queue_id" integer,
	"minutes" integer NOT NULL,
	"due_at" timestamp with time zone,
	"met_at" timestamp with time zone,
	"warned_at" timestamp with time zone,
	"breached_at" timestamp with time zone,
	CONSTRAINT "ticket_slas_target_check" CHECK ("ticket_slas"."target" in ('first_response', 'resolution'))
);
--> statement-breakpoint
ALTER TABLE "push_preferences" ADD COLUMN "sla_warning" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "push_preferences" ADD COLUMN "sla_breach" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_first_response_minutes" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_resolution_minutes" integer;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "first_response_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "resolution_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ticket_slas" ADD CONSTRAINT "ticket_slas_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_slas" ADD CONSTRAINT "ticket_slas_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_slas_ticket_opening_target_key" ON "ticket_slas" USING btree ("ticket_id","opened_at","target");--> statement-breakpoint
CREATE INDEX "ticket_slas_company_opened_idx" ON "ticket_slas" USING btree ("company_id","opened_at");--> statement-breakpoint
CREATE INDEX "ticket_slas_unplanned_idx" ON "ticket_slas" USING btree ("company_id") WHERE "ticket_slas"."due_at" is null;--> statement-breakpoint
CREATE INDEX "tickets_company_status_due_idx" ON "tickets" USING btree ("company_id","status",coalesce(least("first_response_due_at", "resolution_due_at"), 'infinity'::timestamptz),"id");--> statement-breakpoint
-- Service levels (docs/reports.md "Service levels", decision 0104). Hand-written below: the triggers
-- that keep `ticket_slas` with the tickets, on every path that changes a ticket.
-- A ticket of company p_company enters queue p_queue in its opening p_opened: each target the queue
-- has gets a row to plan (due_at null; an unmet row of the opening takes the new queue's minutes),
-- targets it lacks lose their unmet, unbreached row. A first response already given in the opening
-- is met at once.
CREATE OR REPLACE FUNCTION "ticket_slas_enter"(p_company integer, p_ticket integer, p_queue integer,
	p_opened timestamptz) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  first_minutes integer;
  resolution_minutes integer;
BEGIN
  IF p_queue IS NOT NULL THEN
    SELECT q.sla_first_response_minutes, q.sla_resolution_minutes INTO first_minutes, resolution_minutes
    FROM queues q WHERE q.id = p_queue AND q.company_id = p_company;
  END IF;
  DELETE FROM ticket_slas s
  WHERE s.ticket_id = p_ticket AND s.opened_at = p_opened AND s.met_at IS NULL AND s.breached_at IS NULL
    AND ((s.target = 'first_response' AND first_minutes IS NULL)
      OR (s.target = 'resolution' AND resolution_minutes IS NULL));
  INSERT INTO ticket_slas (company_id, ticket_id, target, opened_at, queue_id, minutes, met_at)
  SELECT p_company, p_ticket, k.target, p_opened, p_queue, k.minutes,
    CASE WHEN k.target = 'first_response' THEN (SELECT min(e.at) FROM ticket_events e
      WHERE e.ticket_id = p_ticket AND e.company_id = p_company AND e.kind = 'first_reply' AND e.at >= p_opened)
    END
  FROM (VALUES ('first_response', first_minutes), ('resolution', resolution_minutes)) AS k(target, minutes)
  WHERE k.minutes IS NOT NULL
  ON CONFLICT (ticket_id, opened_at, target) DO UPDATE
    SET queue_id = excluded.queue_id, minutes = excluded.minutes, due_at = NULL, warned_at = NULL
    WHERE ticket_slas.met_at IS NULL;
END
$$;--> statement-breakpoint
-- Before a ticket opens, closes or changes queue its due times are cleared: the planner job writes
-- those of the new state (met targets stay cleared).
CREATE OR REPLACE FUNCTION "ticket_slas_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.first_response_due_at := NULL;
  NEW.resolution_due_at := NULL;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ticket_slas_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_slas_enter(NEW.company_id, NEW.id, NEW.queue_id, NEW.created_at);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ticket_slas_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  opened timestamptz;
BEGIN
  IF NEW.status = 'closed' THEN
    UPDATE ticket_slas SET met_at = now()
    WHERE ticket_id = NEW.id AND target = 'resolution' AND met_at IS NULL;
  ELSIF OLD.status = 'closed' THEN
    -- Reopened: the `reopened` event of this statement is stamped now() too.
    PERFORM ticket_slas_enter(NEW.company_id, NEW.id, NEW.queue_id, now());
  ELSIF OLD.queue_id IS DISTINCT FROM NEW.queue_id THEN
    SELECT e.at INTO opened FROM ticket_events e
    WHERE e.ticket_id = NEW.id AND e.company_id = NEW.company_id AND e.kind IN ('created', 'reopened')
    ORDER BY e.id DESC LIMIT 1;
    PERFORM ticket_slas_enter(NEW.company_id, NEW.id, NEW.queue_id, coalesce(opened, NEW.created_at));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The first agent reply of an opening meets its first-response target.
CREATE OR REPLACE FUNCTION "ticket_slas_on_first_reply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_slas SET met_at = NEW.at
  WHERE ticket_id = NEW.ticket_id AND target = 'first_response' AND met_at IS NULL AND opened_at <= NEW.at;
  UPDATE tickets SET first_response_due_at = NULL
  WHERE id = NEW.ticket_id AND first_response_due_at IS NOT NULL;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "ticket_slas_clear" ON "tickets";--> statement-breakpoint
CREATE TRIGGER "ticket_slas_clear"
	BEFORE UPDATE OF "status", "queue_id" ON "tickets" FOR EACH ROW
	WHEN (OLD.queue_id IS DISTINCT FROM NEW.queue_id
		OR (OLD.status IS DISTINCT FROM NEW.status AND (OLD.status = 'closed' OR NEW.status = 'closed')))
	EXECUTE FUNCTION "ticket_slas_clear"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "ticket_slas_insert" ON "tickets";--> statement-breakpoint
CREATE TRIGGER "ticket_slas_insert" AFTER INSERT ON "tickets" FOR EACH ROW
	WHEN (NEW.queue_id IS NOT NULL AND NEW.status <> 'closed')
	EXECUTE FUNCTION "ticket_slas_on_insert"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "ticket_slas_update" ON "tickets";--> statement-breakpoint
CREATE TRIGGER "ticket_slas_update"
	AFTER UPDATE OF "status", "queue_id" ON "tickets" FOR EACH ROW
	WHEN (OLD.queue_id IS DISTINCT FROM NEW.queue_id
		OR (OLD.status IS DISTINCT FROM NEW.status AND (OLD.status = 'closed' OR NEW.status = 'closed')))
	EXECUTE FUNCTION "ticket_slas_on_update"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "ticket_slas_first_reply" ON "ticket_events";--> statement-breakpoint
CREATE TRIGGER "ticket_slas_first_reply" AFTER INSERT ON "ticket_events" FOR EACH ROW
	WHEN (NEW.kind = 'first_reply')
	EXECUTE FUNCTION "ticket_slas_on_first_reply"();
