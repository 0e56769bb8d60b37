/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`) by self time and by inclusive time, as percent of the busy
 * time (all samples except `(idle)`; `(program)` and `(garbage collector)` are kept as busy). Inclusive time counts
 * each sample once per function even when the function recurses.
 *
 * Profile the delivery API under the HTTP bench's load, then summarise:
 *   npm run build
 *   BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof-calc" BENCH_SECONDS=10 npm run bench -- http calculate
 *   npx tsx bench/http/profile-summary.ts /tmp/prof-calc/*.cpuprofile [--top 30] [--ours packages/]
 *
 * Prints four lists: self time by function, self time by package (node_modules package, `node:` internals, our
 * workspace package, or a V8 pseudo-node), inclusive time of our own functions (url containing `--ours`, default
 * `/packages/` and not `/node_modules/`), and inclusive time of every function.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const TOP = Number(opt('--top', '25'));
const OURS = opt('--ours', '/packages/');
if (!args.length) {
  console.error('usage: tsx bench/http/profile-summary.ts <file.cpuprofile> ... [--top N] [--ours SUBSTRING]');
  process.exit(2);
}

const short = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, 'nm:')
    .replace(/^.*\/packages\//, '');
const label = (f: CallFrame) => `${f.functionName || '(anonymous)'} ${f.url ? `${short(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
function packageOf(f: CallFrame): string {
  const nm = f.url.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nm) return nm[1];
  const ws = f.url.match(/\/packages\/([^/]+)\//);
  if (ws) return `ours:${ws[1]}`;
  if (f.url.startsWith('node:')) return 'node: internals';
  if (!f.url) return f.functionName.startsWith('(') ? f.functionName : '(native/V8 builtins)';
  return short(f.url);
}
const pct = (n: number, total: number) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
function print(title: string, m: Map<string, number>, total: number): void {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`  ${pct(v, total)}  ${(v / 1000).toFixed(0).padStart(7)} ms  ${k}`);
}

for (const file of args) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  p.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  let idle = 0;
  let busy = 0;
  const self = new Map<string, number>();
  const byPkg = new Map<string, number>();
  const incl = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    self.set(label(n.callFrame), (self.get(label(n.callFrame)) ?? 0) + us);
    byPkg.set(packageOf(n.callFrame), (byPkg.get(packageOf(n.callFrame)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!.callFrame);
      if (seen.has(l)) continue;
      seen.add(l);
      incl.set(l, (incl.get(l) ?? 0) + us);
    }
  }
  const oursLabels = new Set(
    p.nodes.filter((n) => n.callFrame.url.includes(OURS) && !n.callFrame.url.includes('/node_modules/')).map((n) => label(n.callFrame)),
  );
  const oursIncl = new Map([...incl].filter(([k]) => oursLabels.has(k)));
  console.log(
    `${file}\n  wall ${((busy + idle) / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (${pct(busy, busy + idle).trim()}), idle ${(idle / 1e6).toFixed(1)} s; percentages below are of busy time`,
  );
  print('self time by function', self, busy);
  print('self time by package', byPkg, busy);
  print(`inclusive time, our functions (url contains "${OURS}")`, oursIncl, busy);
  print('inclusive time, all functions', incl, busy);
}
