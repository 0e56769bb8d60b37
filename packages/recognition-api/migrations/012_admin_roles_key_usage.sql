-- Administration panel (docs/admin-panel.md): several accounts with roles, and per-key request counts.

-- `admin` may change everything; `viewer` only reads. A disabled account cannot sign in and its sessions end.
ALTER TABLE admin_users ADD COLUMN role text NOT NULL DEFAULT 'admin' CHECK (role IN ('admin', 'viewer'));
ALTER TABLE admin_users ADD COLUMN disabled_at timestamptz;

-- Requests and error answers (status >= 400) of each API key per hour, counted in memory by each instance and
-- added here about once a minute (keys/key-usage.ts); the keys page sums the last 24 hours and 7 days.
CREATE TABLE api_key_usage (
  api_key_id text NOT NULL REFERENCES api_keys (id),
  hour timestamptz NOT NULL,
  requests integer NOT NULL DEFAULT 0,
  errors integer NOT NULL DEFAULT 0,
  PRIMARY KEY (api_key_id, hour)
);
