CREATE TABLE "ticket_counts" (
	"company_id" integer NOT NULL,
	"status" text NOT NULL,
	"queue_id" integer,
	"user_id" integer,
	"tickets" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ticket_counts_key" UNIQUE NULLS NOT DISTINCT("company_id","status","queue_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "ticket_counts" ADD CONSTRAINT "ticket_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tickets_unread_company_status_updated_idx" ON "tickets" USING btree ("company_id","status","updated_at","id","queue_id","user_id") WHERE "tickets"."unread_messages" > 0;--> statement-breakpoint
-- Hand-written from here (triggers are not expressible in the Drizzle schema): ticket_counts follows
-- tickets in the transaction that changes them. A row's old (company, status, queue, holder) loses one
-- and its new one gains one on insert, delete and any update of those columns (accepting, closing,
-- returning, transferring; a queue or user deleted sets them null through the foreign key, which fires
-- the trigger too). Updates that touch none of them (a message: last_message, unread_messages,
-- updated_at) do not fire it. The two rows of a move are written in key order, so two moves in opposite
-- directions cannot deadlock on them. Decision 0111.
ALTER TABLE "ticket_counts" SET (fillfactor = 70);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ticket_counts_add"(c integer, s text, q integer, u integer, delta integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF delta > 0 THEN
    INSERT INTO ticket_counts AS k (company_id, status, queue_id, user_id, tickets)
    VALUES (c, s, q, u, delta)
    ON CONFLICT ON CONSTRAINT ticket_counts_key DO UPDATE SET tickets = k.tickets + delta;
  ELSE
    -- The row exists: it was added with the ticket (gone only with its company).
    UPDATE ticket_counts k SET tickets = k.tickets + delta
    WHERE k.company_id = c AND k.status = s AND k.queue_id IS NOT DISTINCT FROM q
      AND k.user_id IS NOT DISTINCT FROM u;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ticket_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ticket_counts_add(NEW.company_id, NEW.status, NEW.queue_id, NEW.user_id, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM ticket_counts_add(OLD.company_id, OLD.status, OLD.queue_id, OLD.user_id, -1);
  ELSIF (OLD.company_id, OLD.status, OLD.queue_id, OLD.user_id)
      IS DISTINCT FROM (NEW.company_id, NEW.status, NEW.queue_id, NEW.user_id) THEN
    IF (OLD.company_id, OLD.status, coalesce(OLD.queue_id, 0), coalesce(OLD.user_id, 0))
        < (NEW.company_id, NEW.status, coalesce(NEW.queue_id, 0), coalesce(NEW.user_id, 0)) THEN
      PERFORM ticket_counts_add(OLD.company_id, OLD.status, OLD.queue_id, OLD.user_id, -1);
      PERFORM ticket_counts_add(NEW.company_id, NEW.status, NEW.queue_id, NEW.user_id, 1);
    ELSE
      PERFORM ticket_counts_add(NEW.company_id, NEW.status, NEW.queue_id, NEW.user_id, 1);
      PERFORM ticket_counts_add(OLD.company_id, OLD.status, OLD.queue_id, OLD.user_id, -1);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_counts_follow AFTER INSERT OR DELETE OR UPDATE OF company_id, status, queue_id, user_id
  ON tickets FOR EACH ROW EXECUTE FUNCTION ticket_counts_follow();
--> statement-breakpoint
-- The tickets already there, counted while no ticket can change.
LOCK TABLE tickets IN SHARE MODE;--> statement-breakpoint
INSERT INTO ticket_counts (company_id, status, queue_id, user_id, tickets)
SELECT company_id, status, queue_id, user_id, count(*)::int FROM tickets
GROUP BY company_id, status, queue_id, user_id;
