/**
 * The machine-load guard and table printer shared by the HTTP benchmarks. Each table records the 1-minute load
 * average at its start and end. A table is printed with a loud WARNING and marked NOT RECORDABLE, because a busy
 * machine makes the numbers and the ratios meaningless, when
 * - the load when the benchmark run started (its first table) was above BENCH_MAX_LOAD (default 2, for a 2-core
 *   machine): the machine was not quiet; later tables start on the load the earlier ones made themselves, or
 * - other work used the CPU while it ran: on Linux the CPU time of every process outside the benchmark (its own
 *   process tree, PostgreSQL and Redis) is summed from /proc over the table's run, and more than
 *   BENCH_MAX_FOREIGN_CPU cores on average (default 0.2) marks it busy.
 * The load at the end is printed but not judged: the benchmark itself keeps both cores busy, so the 1-minute load
 * at its end is high on a quiet machine too. Each table also prints the command line, node version, CPUs,
 * database, connections and duration, so a pasted table carries its method.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

export const MAX_LOAD = Number(process.env.BENCH_MAX_LOAD ?? 2);
/** The 1-minute load when this benchmark run began (the first table), before its own processes loaded the machine. */
let runStartLoad: number | null = null;
/** Average cores that processes outside the benchmark may use during a table before it is not recordable. */
export const MAX_FOREIGN_CPU = Number(process.env.BENCH_MAX_FOREIGN_CPU ?? 0.2);
/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on Linux x86-64). */
const TICKS_PER_SECOND = 100;
/** Processes that serve the benchmark although they are not its children. */
const SHARED_SERVERS = new Set(['postgres', 'redis-server']);

interface ProcSample {
  ppid: number;
  comm: string;
  /** Command line (arguments joined by spaces); empty when unreadable. */
  cmd: string;
  /** utime + stime, clock ticks. */
  ticks: number;
}

/** Every process's CPU ticks from /proc (Linux); null elsewhere or when /proc cannot be read. */
function sampleProcs(): Map<number, ProcSample> | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const out = new Map<number, ProcSample>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')'); // comm may hold spaces and parentheses
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' '); // f[0] = state (field 3), f[1] = ppid, f[11]/f[12] = utime/stime
      let cmd = '';
      try {
        cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        // a kernel thread or another user's process: its comm is enough
      }
      out.set(Number(pid), { ppid: Number(f[1]), comm, cmd, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // the process ended between the listing and the read
    }
  }
  return out;
}

/** Pids of this process and all its descendants in `procs`. */
function ownTree(procs: Map<number, ProcSample>): Set<number> {
  const own = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, p] of procs) {
      if (!own.has(pid) && own.has(p.ppid)) {
        own.add(pid);
        grew = true;
      }
    }
  }
  return own;
}

/**
 * Average cores used between `before` and `after` by processes outside the benchmark (its process tree, PostgreSQL,
 * Redis). Processes that started in between count with all their time; ones that ended in between are missed.
 */
function foreignCores(before: Map<number, ProcSample>, after: Map<number, ProcSample>, seconds: number): number {
  const own = ownTree(after);
  let ticks = 0;
  for (const [pid, p] of after) {
    if (own.has(pid) || SHARED_SERVERS.has(p.comm)) continue;
    ticks += p.ticks - (before.get(pid)?.ticks ?? 0);
  }
  return seconds > 0 ? ticks / TICKS_PER_SECOND / seconds : 0;
}

/** Who a process is to the benchmark, for the CPU breakdown of a case. */
function roleOf(p: ProcSample, own: boolean): string {
  if (SHARED_SERVERS.has(p.comm)) return p.comm === 'postgres' ? 'PostgreSQL' : 'Redis';
  if (!own) return 'other';
  if (p.cmd.includes('delivery-api/dist/main.js')) return 'API';
  if (p.cmd.includes('load-child')) return 'client';
  if (p.cmd.includes('bare-server')) return 'bare';
  if (p.cmd.includes('loyalty')) return 'loyalty';
  return 'bench';
}

/** A CPU snapshot of every process, taken before a case (see {@link cpuSince}). */
export interface CpuMark {
  at: number;
  procs: Map<number, ProcSample> | null;
}

export function cpuMark(): CpuMark {
  return { at: Date.now(), procs: sampleProcs() };
}

/**
 * Average cores used since `mark`, by role: the delivery API process, PostgreSQL, the bare server, the loyalty
 * simulator, the rest of the benchmark and other processes (e.g. `API 0.93 · PostgreSQL 0.71`; the load generator
 * reports its own); roles under 0.01 cores are left out. Linux only ('' elsewhere). Shows what bounds a case on a
 * machine where the API, PostgreSQL and the client share the same cores.
 */
export function cpuSince(mark: CpuMark): string {
  const now = sampleProcs();
  if (!mark.procs || !now) return '';
  const seconds = (Date.now() - mark.at) / 1000;
  const own = ownTree(now);
  const byRole = new Map<string, number>();
  for (const [pid, p] of now) {
    const role = roleOf(p, own.has(pid));
    if (role === 'client') continue; // the load generator reports its own CPU (it has usually exited by now)
    byRole.set(role, (byRole.get(role) ?? 0) + p.ticks - (mark.procs.get(pid)?.ticks ?? 0));
  }
  return [...byRole]
    .map(([role, ticks]) => [role, ticks / TICKS_PER_SECOND / seconds] as const)
    .filter(([, cores]) => cores >= 0.01)
    .sort((a, b) => b[1] - a[1])
    .map(([role, cores]) => `${role} ${cores.toFixed(2)}`)
    .join(' · ');
}

export interface TableContext {
  title: string;
  /** Lines such as `database: PostgreSQL 15`, `connections: 32`, `duration: 10 s per case`. */
  facts: string[];
}

export interface OpenTable {
  ctx: TableContext;
  loadStart: number;
  startedAt: Date;
  procs: Map<number, ProcSample> | null;
}

export function openTable(ctx: TableContext): OpenTable {
  const loadStart = loadavg()[0];
  runStartLoad ??= loadStart;
  return { ctx, loadStart, startedAt: new Date(), procs: sampleProcs() };
}

/** The command that started the benchmark: run.ts passes the npm form, else this process's own argv. */
export function commandLine(): string {
  return process.env.BENCH_COMMAND ?? process.argv.join(' ');
}

/** Prints the table; returns whether it is recordable (quiet at the start, no foreign CPU use while it ran). */
export function printTable(t: OpenTable, columns: string[], rows: (string | number)[][]): boolean {
  const loadEnd = loadavg()[0];
  const after = t.procs ? sampleProcs() : null;
  const foreign = t.procs && after ? foreignCores(t.procs, after, (Date.now() - t.startedAt.getTime()) / 1000) : null;
  const busy = (runStartLoad ?? t.loadStart) > MAX_LOAD || (foreign !== null && foreign > MAX_FOREIGN_CPU);
  const other = foreign === null ? 'other processes not measured' : `other processes ${foreign.toFixed(2)} cores`;
  const load = `load ${(runStartLoad ?? t.loadStart).toFixed(2)} at the run's start, ${t.loadStart.toFixed(2)} → ${loadEnd.toFixed(2)} over this table, ${other}`;
  const out: string[] = [''];
  if (busy) {
    out.push(
      `!!! WARNING: the machine was busy (1-minute ${load}; limits: load ${MAX_LOAD} at the run's start, ${MAX_FOREIGN_CPU} foreign cores); these numbers must not be recorded !!!`,
    );
  }
  out.push(
    `### ${t.ctx.title} — ${busy ? `NOT RECORDABLE (machine busy: ${load})` : `recordable (${load}; limits ${MAX_LOAD} / ${MAX_FOREIGN_CPU})`}`,
  );
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
