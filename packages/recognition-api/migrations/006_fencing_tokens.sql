-- Issue 27: fencing tokens. Every claim of a document or a callback row increments its lease_token; every later
-- write of that holder (renew, release, finish, delivery outcome) names the token it got, so a holder whose lease
-- ran out and was taken over (a stalled process that wakes up) matches nothing. attempts stays the count of
-- charged attempts: a release on shutdown gives the attempt back, the token still moves on.
ALTER TABLE documents ADD COLUMN lease_token integer NOT NULL DEFAULT 0;
ALTER TABLE callbacks ADD COLUMN lease_token integer NOT NULL DEFAULT 0;
