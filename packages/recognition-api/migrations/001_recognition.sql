-- Recognition API schema. Spec: document-recognition-api.md (documents, API keys, callbacks).
-- Jobs are the document rows themselves: status + available_at + lease_until make the durable queue.

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  name text NOT NULL,
  -- SHA-256 (hex) of the full key; the key itself is shown once by the CLI and never stored.
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  created_at timestamptz NOT NULL,
  deactivated_at timestamptz
);

CREATE TABLE documents (
  id text PRIMARY KEY,
  api_key_id text NOT NULL REFERENCES api_keys (id),
  status text NOT NULL CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
  requested_type text NOT NULL,
  document_type text NOT NULL,
  image_quality text NOT NULL,
  output_format text NOT NULL,
  priority text NOT NULL CHECK (priority IN ('high', 'normal', 'batch')),
  callback_url text,
  client_ref text,
  files jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  -- A queued document may be claimed once the clock passes this (batch: the next quarter hour).
  available_at timestamptz NOT NULL,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  completed_at timestamptz,
  -- json, not jsonb: keeps the key order of the spec in responses (jsonb sorts keys).
  data json,
  confidence numeric(3, 2),
  warnings json,
  processing_time_ms integer,
  error_code text,
  error_message text
);

CREATE INDEX documents_owner_created ON documents (api_key_id, created_at DESC);
CREATE INDEX documents_queue ON documents (status, available_at) WHERE status IN ('queued', 'processing');

CREATE TABLE callbacks (
  id text PRIMARY KEY,
  document_id text NOT NULL,
  url text NOT NULL,
  payload json NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  lease_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  UNIQUE (document_id)
);

CREATE INDEX callbacks_due ON callbacks (next_attempt_at) WHERE status = 'pending';
