/** A bad environment variable; the message names it. Both services' config parsers throw it. */
export class ConfigError extends Error {}

/** An integer variable within [min, max]; `dflt` when unset or empty. @throws ConfigError naming the variable. */
export function envInt(env: NodeJS.ProcessEnv, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** A switch variable: 1/true or 0/false (unset or empty = false). @throws ConfigError naming the variable. */
export function envFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1/true or 0/false, got "${raw}"`);
}
