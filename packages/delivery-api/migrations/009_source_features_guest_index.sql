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
