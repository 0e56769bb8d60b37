-- Zone revision: a counter bumped by every statement that writes delivery_zones (operator import or hand-written
-- SQL alike), so each instance can keep its prepared zone index until the zones change (zones/zone-index-cache.ts).
-- One global row: zone edits are rare operator actions; any change rebuilds every tenant's index on next use.
CREATE TABLE zone_revision (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  revision bigint NOT NULL
);
INSERT INTO zone_revision (id, revision) VALUES (true, 1);

CREATE FUNCTION bump_zone_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE zone_revision SET revision = revision + 1 WHERE id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER delivery_zones_revision AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON delivery_zones
  FOR EACH STATEMENT EXECUTE FUNCTION bump_zone_revision();
