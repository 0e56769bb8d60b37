-- Per-source switches for the spec's planned parts (docs/planned-features.md): a source with an empty list keeps
-- the spec's current contract exactly (planned endpoints 404, catalog events not sent, general limits not in force).
ALTER TABLE sources ADD COLUMN features jsonb NOT NULL DEFAULT '[]'::jsonb;

-- Guest history is looked up by a keyed hash of the phone (HMAC under a key derived from MASTER_KEY), never by the
-- phone itself. Filled for new orders by the guest feature before each lookup (orders without it are indexed in
-- small batches), so order creation is unchanged.
ALTER TABLE orders ADD COLUMN guest_phone_hash text;
CREATE INDEX orders_guest_history ON orders (tenant_id, source, guest_phone_hash, created_at DESC, id DESC)
  WHERE guest_phone_hash IS NOT NULL;
CREATE INDEX orders_guest_unindexed ON orders (tenant_id, source) WHERE guest_phone IS NOT NULL AND guest_phone_hash IS NULL;

-- Catalog events (switch catalog-events): webhook events that are about a point, not an order. `coalesce_key`
-- (`<type>:<pointId>`) lets a later revision replace the body of the point's event that has not been sent yet
-- (docs/planned-features.md, "Catalog events").
ALTER TABLE webhook_events ALTER COLUMN order_id DROP NOT NULL;
ALTER TABLE webhook_events ADD COLUMN coalesce_key text;
CREATE INDEX webhook_events_coalesce ON webhook_events (tenant_id, source, coalesce_key) WHERE coalesce_key IS NOT NULL;

-- point.status_changed: the terminal liveness last reported to partners (NULL: not looked at yet, nothing sent).
ALTER TABLE terminal_groups ADD COLUMN notified_alive boolean;
