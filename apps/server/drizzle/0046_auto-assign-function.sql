-- Automatic assignment of one queue in one statement (decision 0136; the rules: docs/automation.md,
-- "Automatic assignment"). Locks the queue row, then the connected online agents' rows in id order
-- (two runs for different queues lock shared agents in the same order), reads each agent's open
-- tickets from ticket_counts, then gives up to p_batch waiting tickets of the queue, oldest first,
-- each to the agent the strategy picks among those under capacity (max_open_tickets 0 = unlimited):
-- round_robin, the next id after the queue's last agent (wrapping); least_busy, the fewest open
-- tickets, then the lowest id. A ticket is taken only while still pending and nobody's. Returns the
-- tickets given and their agents, in the order given.
CREATE OR REPLACE FUNCTION auto_assign_queue(p_company integer, p_queue integer, p_connected integer[], p_batch integer)
RETURNS TABLE (assigned_ticket integer, assigned_user integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_strategy text;
  v_last integer;
  v_first_last integer;
  v_ids integer[];
  v_max integer[];
  v_open integer[];
  v_pick integer;
  v_ticket integer;
  i integer;
BEGIN
  SELECT q.auto_assignment, q.last_assigned_user_id INTO v_strategy, v_last
    FROM queues q WHERE q.company_id = p_company AND q.id = p_queue FOR UPDATE;
  IF NOT FOUND OR v_strategy = 'off' THEN RETURN; END IF;
  v_first_last := v_last;
  SELECT coalesce(array_agg(a.id ORDER BY a.id), '{}'), coalesce(array_agg(a.max_open_tickets ORDER BY a.id), '{}'),
         coalesce(array_agg(a.open ORDER BY a.id), '{}')
    INTO v_ids, v_max, v_open
    FROM (
      SELECT u.id, u.max_open_tickets,
        (SELECT coalesce(sum(c.tickets), 0)::integer FROM ticket_counts c
          WHERE c.company_id = p_company AND c.status = 'open' AND c.user_id = u.id) AS open
      FROM users u
      WHERE u.company_id = p_company AND u.id = ANY (p_connected) AND u.availability = 'online'
      ORDER BY u.id
      FOR UPDATE OF u
    ) a;
  IF cardinality(v_ids) = 0 THEN RETURN; END IF;
  FOR v_ticket IN
    SELECT t.id FROM tickets t
    WHERE t.company_id = p_company AND t.queue_id = p_queue AND t.status = 'pending' AND t.user_id IS NULL
      AND NOT t.is_group AND NOT t.chatbot AND NOT t.use_integration
      AND NOT EXISTS (SELECT 1 FROM flow_runs fr WHERE fr.ticket_id = t.id AND fr.status <> 'ended')
    ORDER BY t.created_at, t.id
    LIMIT p_batch
    FOR UPDATE OF t SKIP LOCKED
  LOOP
    v_pick := NULL;
    FOR i IN 1 .. cardinality(v_ids) LOOP
      CONTINUE WHEN v_max[i] <> 0 AND v_open[i] >= v_max[i];
      IF v_strategy = 'least_busy' THEN
        IF v_pick IS NULL OR v_open[i] < v_open[v_pick] THEN v_pick := i; END IF;
      ELSE
        IF v_last IS NULL OR v_ids[i] > v_last THEN v_pick := i; EXIT; END IF;
        IF v_pick IS NULL THEN v_pick := i; END IF;
      END IF;
    END LOOP;
    EXIT WHEN v_pick IS NULL;
    UPDATE tickets SET status = 'open', user_id = v_ids[v_pick], accepted_at = now(), use_integration = false,
        updated_at = now()
      WHERE id = v_ticket AND status = 'pending' AND user_id IS NULL;
    CONTINUE WHEN NOT FOUND;
    v_open[v_pick] := v_open[v_pick] + 1;
    v_last := v_ids[v_pick];
    assigned_ticket := v_ticket;
    assigned_user := v_ids[v_pick];
    RETURN NEXT;
  END LOOP;
  IF v_last IS DISTINCT FROM v_first_last THEN
    UPDATE queues SET last_assigned_user_id = v_last WHERE id = p_queue;
  END IF;
END;
$$;
