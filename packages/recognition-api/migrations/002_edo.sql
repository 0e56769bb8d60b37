-- E-document operator gateway (Spec: E-document operator gateway; docs/edo-gateway.md).

-- Scopes of an API key: 'recognition' (documents, recognition) and 'edo' (the /api/v1/edo gateway).
-- Keys created before this migration keep the recognition scope only.
ALTER TABLE api_keys ADD COLUMN scopes text[] NOT NULL DEFAULT ARRAY['recognition']::text[];

-- The one operator connection. Secrets are AES-256-GCM sealed (`v1.<iv>.<tag>.<ciphertext>`, base64url) under the
-- master key from configuration; the plain values never reach the database, logs or API answers.
CREATE TABLE edo_connection (
  id text PRIMARY KEY CHECK (id = 'default'),
  operator text NOT NULL CHECK (operator IN ('diadoc')),
  client_id text NOT NULL,
  client_secret_enc text NOT NULL,
  refresh_token_enc text NOT NULL,
  box_id text NOT NULL,
  issuer_url text NOT NULL,
  api_base_url text NOT NULL,
  scope text NOT NULL,
  -- Bumped by every `set`; a running service rebuilds its operator client when it changes.
  revision integer NOT NULL,
  updated_at timestamptz NOT NULL,
  -- Set when the identity provider rotated the refresh token and we stored the new one.
  refresh_token_rotated_at timestamptz
);
