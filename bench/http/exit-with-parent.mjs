/**
 * Preloaded (`node --import`) into the services a benchmark starts from dist (delivery API, loyalty simulator):
 * when the benchmark process dies without cleaning up (SIGKILL, a crash), the service is re-parented and ends
 * itself with SIGTERM (its own graceful shutdown), so no server outlives the run. A 1 s unref'd timer, nothing on
 * the request path. Not a benchmark; used by bench/http/world.ts.
 */
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
}, 1000).unref();
