-- Hold recovery (docs/loyalty.md "Recovery points"): leg states for a release in flight and for settlement that
-- gave up, the coupon's discount line kept with its leg, who asked for a cancellation, accrual back-off, and
-- zone pricing only with a delivery-fee product.

-- `releasing`: an unlinked leg (no order yet, or never) claimed for release before the loyalty call, so a retry
-- of the same order cannot reuse it meanwhile. `settle_failed`: confirm/release gave up after bounded retries;
-- listed by `delivery-operator order legs --stuck` and counted in the metrics.
ALTER TABLE loyalty_legs DROP CONSTRAINT loyalty_legs_state_check;
ALTER TABLE loyalty_legs ADD CONSTRAINT loyalty_legs_state_check
  CHECK (state IN ('holding', 'held', 'releasing', 'confirmed', 'released', 'failed', 'settle_failed'));
-- the POS discount line the coupon granted when it was held: a retry whose fresh calculation no longer sees the
-- (now reserved) coupon reuses this line with the held amount (spec: Loyalty hold legs, "held leg is reused")
ALTER TABLE loyalty_legs ADD COLUMN discount jsonb;
-- failed confirm/release calls so far; bounded by the sweeper's SETTLE_MAX_ATTEMPTS
ALTER TABLE loyalty_legs ADD COLUMN settle_attempts integer NOT NULL DEFAULT 0;

-- 'partner' (POST /v1/orders/{id}/cancel) or 'hold_timeout' (the sweeper's 30-minute rule). A sweeper-made
-- request is withdrawn when the POS verifies the order; a partner's is not.
ALTER TABLE orders ADD COLUMN cancel_requested_by text;

-- accrual: bounded attempts with back-off; the order leaves the queue as 'failed' (or 'skipped' when the tenant
-- has no loyalty) with the reason in accrual_error
ALTER TABLE orders ADD COLUMN accrual_attempts integer NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN accrual_next_at timestamptz;
ALTER TABLE orders ADD COLUMN accrual_error text;
CREATE INDEX orders_accrual_queue ON orders (accrual_next_at) WHERE accrual_state = 'pending';

-- Zone pricing charges the guest a delivery fee that the POS must receive as a service line (rule 9): without a
-- delivery-fee product it cannot be on.
ALTER TABLE tenants ALTER COLUMN zone_pricing SET DEFAULT false;
UPDATE tenants SET zone_pricing = false WHERE delivery_fee_product_id IS NULL;
ALTER TABLE tenants ADD CONSTRAINT tenants_zone_pricing_needs_fee_product
  CHECK (NOT zone_pricing OR delivery_fee_product_id IS NOT NULL);
