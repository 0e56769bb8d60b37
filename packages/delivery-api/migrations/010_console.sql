-- Support console at /console (issue 26; docs/console.md): accounts with roles, their sessions, the audit log of
-- every change made there, and the notes that close a manual review.

-- `admin` may do everything; `support` works orders and webhooks. A disabled account cannot sign in.
CREATE TABLE console_users (
  username text PRIMARY KEY,
  -- `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` (@app/admin-web password.ts); never the password itself.
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'support')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  disabled_at timestamptz
);

-- The encrypted cookie carries only this id; the row makes sign-out and expiry real.
CREATE TABLE console_sessions (
  id text PRIMARY KEY,
  username text NOT NULL REFERENCES console_users (username) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);

-- Who did what, to what, when and from where (the client address through the app's trustProxy).
CREATE TABLE console_audit (
  id text PRIMARY KEY,
  at timestamptz NOT NULL,
  username text NOT NULL,
  ip text NOT NULL,
  action text NOT NULL,
  target text NOT NULL,
  detail text NOT NULL DEFAULT ''
);
CREATE INDEX console_audit_at ON console_audit (at DESC, id DESC);

-- A manual review closed by a person with a note; the order leaves the console's queue (its state stays
-- manual_review, which is final).
CREATE TABLE console_order_reviews (
  order_id uuid PRIMARY KEY REFERENCES orders (id),
  closed_at timestamptz NOT NULL,
  username text NOT NULL,
  note text NOT NULL
);
