/**
 * Delays before the 2nd..7th attempt, in seconds: 10 s, 1 min, 5 min, 30 min, 2 h, 6 h.
 * Spec: Events, Delivery and retries, rule 3. A failure after the last delay marks the delivery dead.
 */
export const RETRY_DELAYS_SECONDS = [10, 60, 5 * 60, 30 * 60, 2 * 3600, 6 * 3600] as const;

/** What happens after a failed attempt: retry at an instant, or dead. */
export type AfterFailure = { kind: 'retry'; at: Date } | { kind: 'dead' };

/**
 * @param failuresBefore failures since the delivery was (re)queued, not counting this one (0 after the first attempt).
 * @param failedAt when this attempt ended (UTC); the delay counts from the failure.
 */
export function afterFailure(failuresBefore: number, failedAt: Date): AfterFailure {
  const delay = RETRY_DELAYS_SECONDS[failuresBefore];
  if (delay === undefined) return { kind: 'dead' };
  return { kind: 'retry', at: new Date(failedAt.getTime() + delay * 1000) };
}

/** Any 2xx is success; 1xx, 3xx (redirects are not followed), 4xx and 5xx are failures. Spec: rule 2. */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status <= 299;
}
