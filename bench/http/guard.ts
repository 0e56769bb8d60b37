/**
 * The machine-load guard and table printer shared by the HTTP benchmarks. Each table records the 1-minute load
 * average at its start and end; when either is above BENCH_MAX_LOAD (default 2, for a 2-core machine) the table
 * is printed with a loud WARNING and marked NOT RECORDABLE, because a busy machine makes the numbers and the
 * ratios meaningless. Each table also prints the command line, node version, CPUs, database, connections and
 * duration, so a pasted table carries its method.
 */
import { cpus, loadavg } from 'node:os';

export const MAX_LOAD = Number(process.env.BENCH_MAX_LOAD ?? 2);

export interface TableContext {
  title: string;
  /** Lines such as `database: PostgreSQL 15`, `connections: 32`, `duration: 10 s per case`. */
  facts: string[];
}

export interface OpenTable {
  ctx: TableContext;
  loadStart: number;
  startedAt: Date;
}

export function openTable(ctx: TableContext): OpenTable {
  return { ctx, loadStart: loadavg()[0], startedAt: new Date() };
}

/** The command that started the benchmark: run.ts passes the npm form, else this process's own argv. */
export function commandLine(): string {
  return process.env.BENCH_COMMAND ?? process.argv.join(' ');
}

/** Prints the table; returns whether it is recordable (machine quiet at start and end). */
export function printTable(t: OpenTable, columns: string[], rows: (string | number)[][]): boolean {
  const loadEnd = loadavg()[0];
  const busy = t.loadStart > MAX_LOAD || loadEnd > MAX_LOAD;
  const load = `load ${t.loadStart.toFixed(2)} → ${loadEnd.toFixed(2)}`;
  const out: string[] = [''];
  if (busy) {
    out.push(`!!! WARNING: the machine was busy (1-minute ${load}, limit BENCH_MAX_LOAD=${MAX_LOAD}); these numbers must not be recorded !!!`);
  }
  out.push(`### ${t.ctx.title} — ${busy ? `NOT RECORDABLE (machine busy: ${load})` : `recordable (${load}, limit ${MAX_LOAD})`}`);
  out.push('');
  out.push(`- command: \`${commandLine()}\``);
  out.push(`- started ${t.startedAt.toISOString()}, node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'})`);
  for (const f of t.ctx.facts) out.push(`- ${f}`);
  out.push('');
  out.push(`| ${columns.join(' | ')} |`);
  out.push(`|${columns.map(() => '---').join('|')}|`);
  for (const r of rows) out.push(`| ${r.join(' | ')} |`);
  out.push('');
  console.log(out.join('\n'));
  return !busy;
}
