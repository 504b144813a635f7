import type pg from 'pg';

/** A node of a plan in EXPLAIN's JSON, with the fields the tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan, its root first. */
export const planNodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(planNodes)];

/**
 * The nodes of the plan PostgreSQL makes for `text`: for these `values`, or without them its generic plan, which
 * holds for any values (the plan the server's connections run, decision 009).
 */
export async function explained(db: pg.Pool | pg.PoolClient, text: string, values?: unknown[]): Promise<PlanNode[]> {
  const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    values ? `explain (format json) ${text}` : `explain (format json, generic_plan) ${text}`,
    values,
  );
  return planNodes(rows[0]!['QUERY PLAN'][0].Plan);
}
