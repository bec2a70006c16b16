ALTER TABLE "ticket_counts" ADD COLUMN "unread" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written from here (decision 0111): ticket_counts also counts, per cell, the tickets with
-- unread messages, so the unread filter's count sums cells like the other tabs. A ticket moving
-- between cells takes its unread mark along (ticket_counts_follow); a ticket that stays in its cell
-- and crosses zero unread messages (the first customer message after a read, or a read) adjusts its
-- cell through a second trigger whose WHEN clause is checked without calling a function, so a
-- message that only adds to an unread ticket costs no function call.
CREATE OR REPLACE FUNCTION "ticket_counts_add"(c integer, s text, q integer, u integer, delta integer, unread_delta integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF delta > 0 THEN
    INSERT INTO ticket_counts AS k (company_id, status, queue_id, user_id, tickets, unread)
    VALUES (c, s, q, u, delta, unread_delta)
    ON CONFLICT ON CONSTRAINT ticket_counts_key
    DO UPDATE SET tickets = k.tickets + delta, unread = k.unread + unread_delta;
  ELSE
    -- The row exists: the ticket is counted in it (rows go only with their company).
    UPDATE ticket_counts k SET tickets = k.tickets + delta, unread = k.unread + unread_delta
    WHERE k.company_id = c AND k.status = s AND k.queue_id IS NOT DISTINCT FROM q
      AND k.user_id IS NOT DISTINCT FROM u;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ticket_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ticket_counts_add(NEW.company_id, NEW.status, NEW.queue_id, NEW.user_id, 1,
      (NEW.unread_messages > 0)::int);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM ticket_counts_add(OLD.company_id, OLD.status, OLD.queue_id, OLD.user_id, -1,
      -(OLD.unread_messages > 0)::int);
  ELSIF (OLD.company_id, OLD.status, OLD.queue_id, OLD.user_id)
      IS DISTINCT FROM (NEW.company_id, NEW.status, NEW.queue_id, NEW.user_id) THEN
    IF (OLD.company_id, OLD.status, coalesce(OLD.queue_id, 0), coalesce(OLD.user_id, 0))
        < (NEW.company_id, NEW.status, coalesce(NEW.queue_id, 0), coalesce(NEW.user_id, 0)) THEN
      PERFORM ticket_counts_add(OLD.company_id, OLD.status, OLD.queue_id, OLD.user_id, -1,
        -(OLD.unread_messages > 0)::int);
      PERFORM ticket_counts_add(NEW.company_id, NEW.status, NEW.queue_id, NEW.user_id, 1,
        (NEW.unread_messages > 0)::int);
    ELSE
      PERFORM ticket_counts_add(NEW.company_id, NEW.status, NEW.queue_id, NEW.user_id, 1,
        (NEW.unread_messages > 0)::int);
      PERFORM ticket_counts_add(OLD.company_id, OLD.status, OLD.queue_id, OLD.user_id, -1,
        -(OLD.unread_messages > 0)::int);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP FUNCTION "ticket_counts_add"(integer, text, integer, integer, integer);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ticket_counts_unread"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_counts_add(NEW.company_id, NEW.status, NEW.queue_id, NEW.user_id, 0,
    (NEW.unread_messages > 0)::int - (OLD.unread_messages > 0)::int);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_counts_unread AFTER UPDATE OF unread_messages ON tickets FOR EACH ROW
  WHEN ((OLD.unread_messages > 0) IS DISTINCT FROM (NEW.unread_messages > 0)
    AND (OLD.company_id, OLD.status, OLD.queue_id, OLD.user_id)
      IS NOT DISTINCT FROM (NEW.company_id, NEW.status, NEW.queue_id, NEW.user_id))
  EXECUTE FUNCTION ticket_counts_unread();
--> statement-breakpoint
-- The unread tickets already there, counted while no ticket can change.
LOCK TABLE tickets IN SHARE MODE;--> statement-breakpoint
UPDATE ticket_counts k SET unread = s.n
FROM (
  SELECT company_id, status, queue_id, user_id, count(*)::int AS n FROM tickets
  WHERE unread_messages > 0 GROUP BY company_id, status, queue_id, user_id
) s
WHERE k.company_id = s.company_id AND k.status = s.status
  AND k.queue_id IS NOT DISTINCT FROM s.queue_id AND k.user_id IS NOT DISTINCT FROM s.user_id;
