-- Signed webhooks: endpoint configuration per tenant+source, the transactional outbox (events) and one
-- delivery per event with its retry schedule and attempt log. See docs/webhooks.md.

-- One URL per tenant and source (spec: Events, Configuration). events NULL = subscribed to all types,
-- including types added later; otherwise a JSON array of event type strings.
CREATE TABLE webhook_endpoints (
  tenant_id text NOT NULL,
  source text NOT NULL,
  url text NOT NULL,
  secret_enc text NOT NULL,
  events jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, source),
  FOREIGN KEY (tenant_id, source) REFERENCES sources(tenant_id, source)
);

-- The serialised body is stored once so every attempt and every replay sends the same bytes.
CREATE TABLE webhook_events (
  event_id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  source text NOT NULL,
  order_id uuid NOT NULL,
  type text NOT NULL,
  occurred_at timestamptz NOT NULL,
  body text NOT NULL
);
CREATE INDEX webhook_events_order ON webhook_events (order_id);

-- status: pending (due at next_attempt_at), delivered, dead. schedule_step counts failures since the delivery
-- was (re)queued and picks the next delay; attempt_count counts all attempts ever (numbering of the log).
-- locked_until/lease_token: a dispatcher's claim; an expired lease (crashed instance) is claimable again.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  event_id uuid NOT NULL REFERENCES webhook_events(event_id),
  tenant_id text NOT NULL,
  source text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')),
  schedule_step integer NOT NULL DEFAULT 0,
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  locked_until timestamptz,
  lease_token uuid,
  last_status integer,
  last_error text,
  delivered_at timestamptz,
  dead_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_source ON webhook_deliveries (tenant_id, source, status);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

-- Every attempt: when, how long (ms, wall time), HTTP status or the error.
CREATE TABLE webhook_attempts (
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id),
  attempt_no integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  http_status integer,
  error text,
  success boolean NOT NULL,
  PRIMARY KEY (delivery_id, attempt_no)
);
