/**
 * Sync freshness of the key's points (GET /v1/status; spec: In development; switch `guest-api`, the server's
 * docs/planned-features.md). Times are RFC 3339 UTC strings, ages whole seconds.
 */
import { type Static, Type } from 'typebox';
import { Nullable } from '@app/shared/typebox';

const Time = () => Nullable(Type.String({ format: 'date-time' }));
const Pushed = Type.Object({ revision: Nullable(Type.String()), pushedAt: Time() });

/**
 * Sync freshness of one point of the key: `active` when the source has an active route at it; the menu and
 * stop-list revision and push time; the POS's last heartbeat, its age and whether it is within the heartbeat window.
 */
export const PointSyncStatusSchema = Type.Object({
  pointId: Type.String(),
  active: Type.Boolean(),
  menu: Pushed,
  stopList: Pushed,
  pos: Type.Object({
    lastHeartbeatAt: Time(),
    heartbeatAgeSeconds: Type.Union([Type.Integer(), Type.Null()]),
    alive: Type.Boolean(),
  }),
});
export type PointSyncStatus = Static<typeof PointSyncStatusSchema>;

/** Response of GET /v1/status: the service's version and time, and each point of the key. */
export const SyncStatusSchema = Type.Object({
  service: Type.Object({ version: Type.String(), time: Type.String({ format: 'date-time' }) }),
  points: Type.Array(PointSyncStatusSchema),
});
export type SyncStatus = Static<typeof SyncStatusSchema>;
