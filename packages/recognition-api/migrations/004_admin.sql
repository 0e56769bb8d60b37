-- Administration panel (issue 10): the administrator account, its sessions, and when an API key was last used.

CREATE TABLE admin_users (
  username text PRIMARY KEY,
  -- `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` (admin-web/password.ts); never the password itself.
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The encrypted cookie carries only a session id; the row makes sign-out and expiry real (a copied cookie dies too).
CREATE TABLE admin_sessions (
  id text PRIMARY KEY,
  username text NOT NULL REFERENCES admin_users (username) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);

-- Updated at most once a minute per key by the API key check (keys.repo.ts touch()).
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
