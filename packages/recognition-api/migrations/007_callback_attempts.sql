-- Issue 27, defect 4: every callback POST is recorded (GET /api/v1/documents/{id}/callbacks shows them), a
-- re-send starts a new attempt series, and every callback is signed.

-- One row per POST: which series (1 = the automatic one, +1 per re-send), its number within the series, when it
-- started and ended, the receiver's HTTP status (null when none came back) and the error (null when delivered).
CREATE TABLE callback_attempts (
  callback_id text NOT NULL,
  series integer NOT NULL,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('delivered', 'failed')),
  http_status integer,
  error text,
  PRIMARY KEY (callback_id, series, attempt)
);
ALTER TABLE callbacks ADD COLUMN series integer NOT NULL DEFAULT 1;

-- Rows that predate migration 003 have no key: take it from their document, so they are signed like the rest.
UPDATE callbacks c SET api_key_id = d.api_key_id FROM documents d WHERE d.id = c.document_id AND c.api_key_id IS NULL;
-- Any key still without a signing secret gets one (never shown: `keys-cli callback-secret KEY_ID` rotates and prints it).
UPDATE api_keys SET callback_secret = 'whsec_' || encode(decode(
  replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64')
  WHERE callback_secret IS NULL;
