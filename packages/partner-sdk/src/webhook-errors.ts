/**
 * Why a webhook was refused. Each code names one broken property so the receiver's log says what to fix.
 * - missing_header: one of X-Service-Event-Id, X-Service-Timestamp, X-Service-Signature is absent or empty
 * - invalid_event_id: X-Service-Event-Id is not a UUID (8-4-4-4-12 hex)
 * - invalid_timestamp: X-Service-Timestamp is not Unix seconds (digits)
 * - timestamp_too_old / timestamp_in_future: outside the tolerance (check the receiver's clock, NTP)
 * - invalid_signature: HMAC mismatch (wrong secret, body changed in transit, or body re-serialised before verifying)
 * - invalid_encoding: body is not valid UTF-8
 * - malformed_json: body does not parse as JSON
 * - trailing_data: something follows the JSON value
 * - unknown_field / missing_field / invalid_field: body does not match the published shape
 * - event_id_mismatch: body eventId differs from X-Service-Event-Id
 */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'invalid_event_id'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'invalid_signature'
  | 'invalid_encoding'
  | 'malformed_json'
  | 'trailing_data'
  | 'unknown_field'
  | 'missing_field'
  | 'invalid_field'
  | 'event_id_mismatch';

/** The one error type of the verifier; answer 400 (or 401 for signature reasons) and do not process the event. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}
