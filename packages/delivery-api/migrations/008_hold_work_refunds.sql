-- Issue 21 (docs/loyalty.md "Cancellation of a verified order", "The sweeper's work lists", "Accrual"):

-- A held leg whose next look waits for its order to move (manual_review, a cancellation waiting at the POS, or a
-- 30-minute rule not due yet): `check_after` is set by the sweeper to when it is due (far future when only the
-- order can change that), and the order's next change of state or cancel state resets it (OrdersRepo.update).
-- Legs that need no action are so kept out of the sweeper's work list instead of being looked at every minute.
ALTER TABLE loyalty_legs ADD COLUMN waits_for_order boolean NOT NULL DEFAULT false;
CREATE INDEX loyalty_legs_work ON loyalty_legs (state, check_after);

-- A loyalty spend that a person must decide on: the POS cancelled an order after the server had confirmed (or was
-- confirming) its coupon, bonus or certificate, or the loyalty service answered a hold of an order-less leg as
-- already spent. Reversal of a confirmed spend is not a defined transition (spec), so nothing reverses it
-- automatically: `delivery-operator order refunds` lists the legs, `order refund --leg ID` records the decision.
ALTER TABLE loyalty_legs ADD COLUMN refund_state text CHECK (refund_state IN ('required', 'done'));
ALTER TABLE loyalty_legs ADD COLUMN refund_note text;
ALTER TABLE loyalty_legs ADD COLUMN refund_flagged_at timestamptz;
CREATE INDEX loyalty_legs_refunds ON loyalty_legs (refund_flagged_at) WHERE refund_state = 'required';

-- Accruals no longer end as `skipped` while a tenant's loyalty is off: they wait as `pending`. Those skipped
-- before are queued again. `accrual_since`: when the accrual became pending (delivered, or queued again by an
-- operator), for the gauge of pending accruals by age.
ALTER TABLE orders ADD COLUMN accrual_since timestamptz;
UPDATE orders SET accrual_since = updated_at WHERE accrual_state IN ('pending', 'skipped');
UPDATE orders SET accrual_state = 'pending', accrual_error = NULL, accrual_next_at = NULL WHERE accrual_state = 'skipped';
