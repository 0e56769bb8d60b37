-- Issue 27, defect 6: every claim takes a number; every BATCH_SHARE_EVERY-th claim (jobs/queue.repo.ts) prefers due
-- batch work over normal work, so a sustained normal load cannot starve the quarter-hour batches.
CREATE SEQUENCE queue_claim_seq;
