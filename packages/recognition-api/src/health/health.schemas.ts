import { Type, type Static } from 'typebox';
import type { HealthReport } from './health.service.js';

const literals = <const V extends string[]>(values: readonly [...V], description: string) =>
  Type.Enum(values, { type: 'string', description } as never);
const engineState = (description: string) => literals(['ok', 'unavailable', 'not_configured'], description);

/** Health (Spec: Resources, "Health"): the body of both 200 (all components work) and 503 (degraded). */
export const HealthSchema = Type.Object(
  {
    status: literals(['ok', 'degraded'], 'degraded (HTTP 503) when the database or the engine in use is not working'),
    version: Type.String({ description: 'service version (Spec: Versioning)' }),
    python_worker: engineState('the local OCR engine'),
    ai_api: engineState('the AI adapter; not_configured when none is set up'),
    database: literals(['connected', 'disconnected'], 'PostgreSQL'),
    queue_store: literals(['connected', 'disconnected'], 'the job queue lives in the database, so it follows `database`'),
    queue_size: Type.Integer({ description: 'documents waiting or in processing' }),
    avg_processing_time_ms: Type.Integer({ description: 'milliseconds' }),
  },
  { description: 'Spec: Resources, Health' },
);

// Compile-time guard: the schema and HealthReport describe the same object.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameHealth: Same<Static<typeof HealthSchema>, HealthReport> = true;
void sameHealth;
