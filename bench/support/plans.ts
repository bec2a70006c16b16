/**
 * Query plans of the HTTP benchmarks (bench/api, bench/dashboard): the app's statements for one
 * request are recorded, run again under EXPLAIN (ANALYZE, BUFFERS) and summed up for the report.
 */
import type pg from 'pg';
import { f1 } from './load.js';
import { type RecordedQuery, recordDuring } from './query-recorder.js';

/** One statement's plan: its text and what the report shows of it. */
export interface Plan<K extends string = string> {
  scenario: string;
  kind: K;
  text: string;
  executionMs: number;
  planningMs: number;
  indexes: string[];
  seqScans: string[];
  jit: boolean;
  buffers: string;
}

/** The app's queries while `request` runs (the query recorder must be installed). */
export async function recordQueries(request: () => Promise<unknown>): Promise<RecordedQuery[]> {
  return (await recordDuring(request)).queries;
}

/** Runs `query` again under EXPLAIN (ANALYZE, BUFFERS) through `ref` and reads its plan. */
export async function explainQuery<K extends string>(
  ref: pg.Pool,
  query: RecordedQuery,
  scenario: string,
  kind: K,
): Promise<Plan<K>> {
  const { rows } = await ref.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, buffers) ${query.text}`,
    query.values,
  );
  const text = rows.map((r) => r['QUERY PLAN']).join('\n');
  const unique = (re: RegExp) => [...new Set([...text.matchAll(re)].map((m) => m[1]!))];
  return {
    scenario,
    kind,
    text,
    executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? Number.NaN),
    planningMs: Number(/Planning Time: ([\d.]+) ms/.exec(text)?.[1] ?? Number.NaN),
    indexes: unique(/(?:Index Scan|Index Only Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\S+)/g),
    seqScans: unique(/Seq Scan on (\S+)/g),
    jit: /^JIT:/m.test(text),
    buffers: /Buffers: (shared [^\n]*)/.exec(text)?.[1]?.trim() ?? '',
  };
}

/**
 * The results to EXPLAIN: the slowest by sequential p99 (concurrent misses on a small machine are
 * mostly CPU contention, not plans), those at or over `targetMs`, at least `atLeast`, at most `atMost`.
 */
export function slowestResults<R extends { sequential: { latency: { p99: number } } }>(
  results: R[],
  targetMs: number,
  atLeast: number,
  atMost: number,
): R[] {
  const bySlowest = [...results].sort((a, b) => b.sequential.latency.p99 - a.sequential.latency.p99);
  const over = bySlowest.filter((r) => r.sequential.latency.p99 >= targetMs).length;
  return bySlowest.slice(0, Math.min(atMost, Math.max(atLeast, over)));
}

/**
 * The plan table: `| scenario | <kindHeader> | execution ms | planning ms | <extra columns> | indexes
 * used | sequential scans | shared buffers | JIT |`, one row per plan.
 */
export function planTable<P extends Plan>(
  plans: P[],
  kindHeader: string,
  extra?: { header: string; cell: (plan: P) => string },
): string[] {
  const lines = [
    `| scenario | ${kindHeader} | execution ms | planning ms |${extra ? ` ${extra.header} |` : ''} indexes used | sequential scans | shared buffers | JIT |`,
    `| --- | --- | ---: | ---: |${extra ? ' ---: |' : ''} --- | --- | --- | --- |`,
  ];
  for (const p of plans) {
    lines.push(
      `| ${p.scenario} | ${p.kind} | ${f1(p.executionMs)} | ${f1(p.planningMs)} | ` +
        (extra ? `${extra.cell(p)} | ` : '') +
        `${p.indexes.map((i) => `\`${i}\``).join(', ') || '-'} | ${p.seqScans.map((s) => `\`${s}\``).join(', ') || '-'} | ` +
        `${p.buffers.replace('shared ', '') || '-'} | ${p.jit ? 'yes' : 'no'} |`,
    );
  }
  return lines;
}

/** The slowest plan's full text in a `<details>` block (`noun`: 'query', 'statement'); none without plans. */
export function slowestPlanDetails(plans: Plan[], noun: string): string[] {
  const slowest = [...plans].sort((a, b) => b.executionMs - a.executionMs)[0];
  if (!slowest) return [];
  return [
    '',
    `<details><summary>Slowest plan: ${slowest.scenario}, ${slowest.kind} ${noun} (${f1(slowest.executionMs)} ms)</summary>`,
    '',
    '```text',
    slowest.text,
    '```',
    '',
    '</details>',
  ];
}

/**
 * The plans part of a section: `heading`, `intro`, the plan table lines and the slowest plan's full
 * text (`noun`: what a statement is called).
 */
export function plansPart(
  heading: string,
  intro: string,
  table: string[],
  plans: Plan[],
  noun: string,
): string[] {
  return [heading, '', intro, '', ...table, ...slowestPlanDetails(plans, noun), ''];
}
