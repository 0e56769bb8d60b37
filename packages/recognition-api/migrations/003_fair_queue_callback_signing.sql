-- Issue 11: fair queue turns per API key, signed callbacks (Standard Webhooks) with a per-key secret.
-- (002 is taken by the API-key scopes / EDO connection work on another branch.)

-- Round-robin between keys: the turn number of the last document claimed for each key. The key whose turn is
-- oldest (or that never had one) is served next within the best priority class.
CREATE SEQUENCE queue_turn_seq;
CREATE TABLE queue_turns (
  api_key_id text PRIMARY KEY,
  last_turn bigint NOT NULL
);

-- The secret callbacks of this key are signed with (`whsec_` + base64 of 32 random bytes), shown once when the
-- key is created. Existing keys get one here (gen_random_uuid is a strong random source); it was never shown,
-- so `keys-cli callback-secret KEY_ID` rotates and prints it.
ALTER TABLE api_keys ADD COLUMN callback_secret text;
UPDATE api_keys SET callback_secret = 'whsec_' || encode(decode(
  replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64')
  WHERE callback_secret IS NULL;

-- The key a callback belongs to: parallel delivery caps the deliveries in flight per key, and the signature
-- uses that key's secret.
ALTER TABLE callbacks ADD COLUMN api_key_id text;
UPDATE callbacks c SET api_key_id = d.api_key_id FROM documents d WHERE d.id = c.document_id;

CREATE INDEX documents_due_by_key ON documents (api_key_id, available_at) WHERE status IN ('queued', 'processing');
