-- Issue 27, defect 5: `Idempotency-Key` on POST /api/v1/recognize. One row per (API key, idempotency key): the
-- hash of the request it first came with and the document it created. A row counts for 24 hours; after that the
-- key may be used for a new request (the row is replaced). Deleted with its document.
CREATE TABLE idempotency_keys (
  api_key_id text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  document_id text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (api_key_id, key)
);
CREATE INDEX idempotency_keys_document ON idempotency_keys (document_id);
