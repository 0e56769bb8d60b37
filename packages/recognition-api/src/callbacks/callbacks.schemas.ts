import { Type, type Static } from 'typebox';

/** One recorded POST of a callback (GET /api/v1/documents/{id}/callbacks; ours, docs/decisions.md "Callback delivery"). */
export const CallbackAttemptSchema = Type.Object(
  {
    series: Type.Integer({ minimum: 1, description: '1 = the automatic series; +1 per re-send' }),
    attempt: Type.Integer({ minimum: 1, description: 'number of the POST within its series' }),
    started_at: Type.String({ format: 'date-time' }),
    finished_at: Type.String({ format: 'date-time' }),
    outcome: Type.Union([Type.Literal('delivered'), Type.Literal('failed')]),
    http_status: Type.Union([Type.Integer(), Type.Null()], { description: "the receiver's status; null when no answer came" }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'why the POST failed; null when delivered' }),
  },
  { additionalProperties: false },
);

/** A document's completion callback and its delivery history. */
export const CallbackViewSchema = Type.Object(
  {
    id: Type.String({ description: 'delivery id (`cb_…`), sent as `webhook-id` on every POST, re-sends included' }),
    url: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    series: Type.Integer({ minimum: 1 }),
    attempt_count: Type.Integer({ minimum: 0, description: 'POSTs made in the current series' }),
    max_attempts: Type.Integer({ description: 'POSTs a series makes at most (the first + one after each delay of 5 s, 30 s, 2 min)' }),
    next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'when the next POST is due; null unless pending',
    }),
    last_error: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    attempts: Type.Array(CallbackAttemptSchema, { description: 'every POST, oldest first' }),
  },
  { additionalProperties: false },
);
export type CallbackViewBody = Static<typeof CallbackViewSchema>;

/** GET /api/v1/documents/{id}/callbacks: empty when the document was uploaded without `callback_url`. */
export const CallbackListSchema = Type.Object({ data: Type.Array(CallbackViewSchema) }, { additionalProperties: false });
export type CallbackListBody = Static<typeof CallbackListSchema>;
