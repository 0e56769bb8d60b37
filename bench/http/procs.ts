/**
 * Child-process bookkeeping for the HTTP benchmarks: every process a benchmark starts is registered here and
 * killed when the benchmark ends, fails or is interrupted (SIGINT/SIGTERM), and async clean-ups (dropping the
 * bench database) run once. Not a benchmark itself; used by bench/http/*.ts.
 */
import { fork, spawn, type ChildProcess, type ForkOptions, type SpawnOptions } from 'node:child_process';

const live = new Set<ChildProcess>();
const cleanups: (() => Promise<void>)[] = [];

/** The tsx loader flags for a TypeScript child that imports the workspace packages from source. */
export const TS_EXEC_ARGV = ['--conditions=source', '--import', 'tsx'];

function track(p: ChildProcess): ChildProcess {
  live.add(p);
  p.once('exit', () => live.delete(p));
  return p;
}

/** A TypeScript helper of this harness, with an IPC channel (it exits when the channel closes). */
export function forkTs(file: string, opts: ForkOptions = {}): ChildProcess {
  return track(fork(file, [], { execArgv: TS_EXEC_ARGV, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], ...opts }));
}

export function spawnTracked(cmd: string, args: string[], opts: SpawnOptions): ChildProcess {
  return track(spawn(cmd, args, opts));
}

/** Ends a child: SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
export async function stop(p: ChildProcess, graceMs = 3000): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise<void>((r) => p.once('exit', () => r()));
  p.kill('SIGTERM');
  const t = setTimeout(() => p.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(t);
}

/** Registers an async clean-up (run once, last registered first) by {@link shutdown}. */
export function onCleanup(fn: () => Promise<void>): void {
  cleanups.push(fn);
}

let shuttingDown: Promise<void> | null = null;
/** Stops every live child, then runs the clean-ups; errors are printed, never thrown. */
export function shutdown(): Promise<void> {
  shuttingDown ??= (async () => {
    await Promise.all([...live].map((p) => stop(p).catch(() => {})));
    for (const fn of cleanups.reverse()) await fn().catch((err) => console.error(`clean-up failed: ${(err as Error).message}`));
  })();
  return shuttingDown;
}

/** For the benchmark's main process only (its helpers keep the default signal handling and just end). */
export function installExitHandlers(): void {
  // A synchronous last resort: whatever path the process takes to exit, no child outlives it.
  process.on('exit', () => {
    for (const p of live) p.kill('SIGKILL');
  });
  // `on`, not `once`: a terminal's Ctrl-C reaches this process twice (directly and forwarded by bench/run.ts), and
  // a second signal must not kill it with the default action halfway through its clean-up.
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      console.error(`\n${sig}: stopping the benchmark's processes`);
      void shutdown().finally(() => process.exit(130));
    });
  }
}
