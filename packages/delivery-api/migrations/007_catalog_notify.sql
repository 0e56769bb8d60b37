-- Catalog change notifications (issue 13): every write that can change what GET /v1/points/{id}/menu answers
-- without reading the menu document (the point row, its route, the terminal group's menu and stop-list revisions
-- and sync times) sends NOTIFY delivery_catalog after commit, from any instance or hand-written SQL, so each
-- instance can keep the catalog revision of a point in memory (catalog/catalog-revision-cache.ts).
-- Payloads: 'tg:<organization_id>/<terminal_group_id>', 'point:<tenant_id>/<point_id>', '*' (everything).
-- Heartbeats (last_heartbeat_at) and the streets and product-mapping pushes do not notify: the menu does not use them.

CREATE FUNCTION notify_catalog_terminal_group() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('delivery_catalog', 'tg:' || OLD.organization_id || '/' || OLD.terminal_group_id);
  ELSE
    PERFORM pg_notify('delivery_catalog', 'tg:' || NEW.organization_id || '/' || NEW.terminal_group_id);
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION notify_catalog_point() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('delivery_catalog', 'point:' || OLD.tenant_id || '/' || OLD.point_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('delivery_catalog', 'point:' || NEW.tenant_id || '/' || NEW.point_id);
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION notify_catalog_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('delivery_catalog', '*');
  RETURN NULL;
END;
$$;

CREATE TRIGGER terminal_groups_catalog_notify
  AFTER INSERT OR DELETE OR UPDATE OF organization_id, terminal_group_id, menu, menu_revision, menu_synced_at, stop_list,
    stop_list_revision, stop_list_synced_at ON terminal_groups
  FOR EACH ROW EXECUTE FUNCTION notify_catalog_terminal_group();
CREATE TRIGGER routes_catalog_notify AFTER INSERT OR UPDATE OR DELETE ON routes
  FOR EACH ROW EXECUTE FUNCTION notify_catalog_point();
CREATE TRIGGER points_catalog_notify AFTER INSERT OR UPDATE OR DELETE ON points
  FOR EACH ROW EXECUTE FUNCTION notify_catalog_point();
CREATE TRIGGER terminal_groups_catalog_truncate AFTER TRUNCATE ON terminal_groups FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_all();
CREATE TRIGGER routes_catalog_truncate AFTER TRUNCATE ON routes FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_all();
CREATE TRIGGER points_catalog_truncate AFTER TRUNCATE ON points FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_all();
