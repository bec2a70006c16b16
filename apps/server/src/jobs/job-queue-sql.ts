/**
 * The job queue's own SQL on pg-boss's tables: the per-key claim, the key index, the wake triggers,
 * and the retry of start-up schema steps that race other nodes (used by JobQueue in job-queue.ts).
 */

/**
 * The NOTIFY channel of the job queue's triggers (JOB_WAKE_SQL). Payload `<queue>|<ms until due>|<node>`:
 * the node that ran the job when it ended (empty for a queued job, which every node hears).
 */
export const JOB_WAKE_CHANNEL = 'zapdesk_job_wake';

/** The job data key recording which node claimed a job (see `claim`). */
export const CLAIMED_BY = '_claimedBy';

/**
 * Takes up to $2 due jobs of queue $1 for node $3, oldest first, like pg-boss's own fetch but with
 * per-key order: a job whose key (`singleton_key`) has an older job still queued, retrying or
 * active is left alone, so jobs of one key run one at a time in the order queued while other keys
 * run in parallel, on this node and across nodes (`SKIP LOCKED`). The claiming node's id is written
 * into the job's data (`_claimedBy`), which pg-boss has no column for. When it took fewer than $2, one
 * more row (null id) carries `next_due_ms`: the milliseconds until the next job of the queue that is not
 * due yet (null when none), from pg-boss's (name, start_after) index, for the worker's due timer.
 */
export const CLAIM_SQL = `
  with next as (
    select j.id
    from pgboss.job j
    where j.name = $1
      and j.state < 'active'
      and j.start_after < now()
      and (
        j.singleton_key is null
        or not exists (
          select 1 from pgboss.job o
          where o.name = $1
            and o.singleton_key = j.singleton_key
            and o.state < 'completed'
            and (o.created_on < j.created_on or (o.created_on = j.created_on and o.id < j.id))
        )
      )
    order by j.created_on, j.id
    limit $2
    for update skip locked
  )
  , claimed as (
    update pgboss.job j set
      state = 'active',
      started_on = now(),
      retry_count = case when j.started_on is not null then j.retry_count + 1 else j.retry_count end,
      data = jsonb_set(coalesce(j.data, '{}'::jsonb), '{${CLAIMED_BY}}', to_jsonb($3::text))
    from next
    where j.name = $1 and j.id = next.id
    returning j.id, j.data, j.created_on
  )
  select id, data, created_on, null::float8 as next_due_ms from claimed
  union all
  select null, null, null, ceil(extract(epoch from min(f.start_after) - now()) * 1000)::float8
  from pgboss.job f
  where f.name = $1 and f.state < 'active' and f.start_after >= now()
    and (select count(*) from claimed) < $2
`;

/** Finds the older jobs of a key quickly (the claim's `not exists`). */
export const KEY_INDEX_SQL = `
  create index if not exists job_key_order on pgboss.job (name, singleton_key, created_on)
  where state < 'completed' and singleton_key is not null
`;

/**
 * The triggers that wake workers across nodes (JOB_WAKE_CHANNEL, delivered at commit): a job queued,
 * with the milliseconds until it is due; a job leaving 'active' for 'retry' (due after its delay) or, when
 * it has a key, ending (the next job of its key may now run), with the node that ran it, which woke its
 * own worker already. Row triggers on the partitioned pgboss.job reach every queue's partition, present
 * and future. NOTIFY drops repeats of one payload within a transaction, so a batch of jobs due now
 * costs one notification.
 */
export const JOB_WAKE_SQL = `
  create or replace function pgboss.zapdesk_job_wake_v1() returns trigger language plpgsql as $fn$
  begin
    perform pg_notify('${JOB_WAKE_CHANNEL}', new.name || '|'
      || greatest(0, ceil(extract(epoch from new.start_after - clock_timestamp()) * 1000))::bigint || '|'
      || case when tg_op = 'INSERT' then '' else coalesce(new.data->>'${CLAIMED_BY}', '') end);
    return null;
  end
  $fn$;
  create trigger zapdesk_job_queued_v1 after insert on pgboss.job
    for each row when (new.state < 'active') execute function pgboss.zapdesk_job_wake_v1();
  create trigger zapdesk_job_ended_v1 after update of state on pgboss.job
    for each row when (old.state = 'active' and (new.state = 'retry' or (new.state > 'active' and new.singleton_key is not null)))
    execute function pgboss.zapdesk_job_wake_v1();
`;

/** Whether the wake triggers of JOB_WAKE_SQL exist. */
export const JOB_WAKE_EXISTS_SQL = `select 1 from pg_trigger where tgname = 'zapdesk_job_ended_v1' limit 1`;

/** Attempts of a start-up step that collided with another node's. */
const DDL_ATTEMPTS = 8;
/**
 * What Postgres answers when two sessions change the schema at once: a deadlock (40P01), the same
 * catalog row inserted twice (23505 on pg_class/pg_type by `create … if not exists`), an object the
 * other session just created (42710, a trigger) or a catalog row it is replacing (XX000, "tuple
 * concurrently updated", `create or replace function`).
 */
const DDL_COLLISIONS = new Set(['40P01', '23505', '42710', 'XX000']);

/**
 * Runs an idempotent schema step, again after a short random pause when it collides with another
 * node doing the same at the same moment (DDL_COLLISIONS), at most DDL_ATTEMPTS times.
 */
export async function retryConcurrentDdl<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const code = String((error as { code?: unknown }).code);
      if (!DDL_COLLISIONS.has(code) || attempt >= DDL_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 100 * attempt));
    }
  }
}
