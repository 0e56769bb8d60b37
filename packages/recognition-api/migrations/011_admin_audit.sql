-- Audit log of the administration panel (issue 23, panel item 5; docs/admin-panel.md): who did what, to what, from where.
CREATE TABLE admin_audit (
  id text PRIMARY KEY,
  at timestamptz NOT NULL,
  username text NOT NULL,
  -- The client address as the panel saw it (through TRUST_PROXY when set).
  ip text NOT NULL,
  action text NOT NULL,
  target text NOT NULL,
  detail text NOT NULL DEFAULT ''
);
CREATE INDEX admin_audit_at ON admin_audit (at DESC, id DESC);
