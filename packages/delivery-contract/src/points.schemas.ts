/** Points of sale as the partner sees them. Spec: GET /v1/points, GET /v1/points/{pointId}/status; Resources, Point. */
import { type Static, Type } from 'typebox';
import { Nullable } from '@app/shared/typebox';

/** One point: schedule times are HH:MM Moscow time, weekday 0 = Sunday, close <= open crosses midnight. */
export const PointSchema = Type.Object({
  externalPointId: Type.String(),
  active: Type.Boolean(),
  streetsSyncedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  name: Nullable(Type.String()),
  address: Nullable(Type.String()),
  location: Type.Union([Type.Object({ lat: Type.Number(), lon: Type.Number() }), Type.Null()]),
  phone: Nullable(Type.String()),
  timezone: Type.String(),
  schedule: Type.Union([Type.Array(Type.Object({ weekday: Type.Integer(), open: Type.String(), close: Type.String() })), Type.Null()]),
  isOpenNow: Type.Boolean(),
  acceptsOrders: Type.Boolean(),
  deliveryTypes: Type.Union([Type.Array(Type.String()), Type.Null()]),
});
export type Point = Static<typeof PointSchema>;

/** Answer of GET /v1/points. */
export const PointsReply = Type.Object({ points: Type.Array(PointSchema) });

/** Answer of GET /v1/points/{pointId}/status. */
export const PointStatusSchema = Type.Object({
  acceptsOrders: Type.Boolean(),
  terminalAlive: Type.Boolean(),
  isOpenNow: Type.Boolean(),
  reason: Type.Union([Type.Literal('terminal_offline'), Type.Literal('closed'), Type.Null()]),
});
export type PointStatus = Static<typeof PointStatusSchema>;
