import { AUDIT_LABELS } from './console-audit.js';

/** Helpers the console's templates receive beside @app/admin-web's (`it.h`). */
export const consoleHelpers = {
  /** The Russian name of an audited action, or its code. */
  action: (a: string): string => AUDIT_LABELS[a] ?? a,
};
