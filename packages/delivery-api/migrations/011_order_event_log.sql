-- The order's own history (issue 26, the console's timeline): every order event the orders feature reports through
-- its OrderEvents port, whether or not the source has a webhook endpoint subscribed to it (the outbox keeps only
-- those). Written in the same statement as the outbox rows (webhooks/outbox.repo.ts), so an entry exists exactly
-- when the change it reports was committed. Only the states are kept, not the order body: the phone and the
-- address stay in `orders`. Kept as long as the order (docs/console.md).
CREATE TABLE order_event_log (
  -- insertion order: events of one transaction share their instant, and the page must show them in the order made
  seq bigint GENERATED ALWAYS AS IDENTITY,
  event_id uuid PRIMARY KEY,
  order_id uuid NOT NULL,
  type text NOT NULL,
  state text,
  delivery_status text,
  cancel_state text,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX order_event_log_order ON order_event_log (order_id, occurred_at, seq);
