-- Foundation: tenants, sources, points, routes, credentials, single-use request ids,
-- terminal groups with their POS-pushed catalog, delivery zones.

CREATE TABLE tenants (
  id text PRIMARY KEY,
  name text NOT NULL,
  checkout_enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sources (
  tenant_id text NOT NULL REFERENCES tenants(id),
  source text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, source)
);

-- A restaurant. point_id is the point number as a string (spec: pointId / externalPointId).
CREATE TABLE points (
  tenant_id text NOT NULL REFERENCES tenants(id),
  point_id text NOT NULL,
  name text,
  address text,
  lat double precision,
  lon double precision,
  phone text,
  timezone text NOT NULL DEFAULT 'Europe/Moscow',
  schedule jsonb,
  delivery_types jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, point_id)
);

-- The POS side of a point: an iiko organization and terminal group. The POS plugin pushes menu, stop-list,
-- streets and heartbeats per terminal group; revisions are content hashes so an unchanged push keeps them.
CREATE TABLE terminal_groups (
  organization_id text NOT NULL,
  terminal_group_id text NOT NULL,
  tenant_id text NOT NULL REFERENCES tenants(id),
  last_heartbeat_at timestamptz,
  menu jsonb,
  menu_hash text,
  menu_revision text,
  menu_synced_at timestamptz,
  stop_list jsonb,
  stop_list_revision text,
  stop_list_synced_at timestamptz,
  streets jsonb,
  streets_revision text,
  streets_synced_at timestamptz,
  product_mappings jsonb,
  product_mappings_revision text,
  product_mappings_synced_at timestamptz,
  PRIMARY KEY (organization_id, terminal_group_id)
);

-- Route of a source at a point: where orders of that source go at the POS.
CREATE TABLE routes (
  tenant_id text NOT NULL,
  source text NOT NULL,
  point_id text NOT NULL,
  organization_id text NOT NULL,
  terminal_group_id text NOT NULL,
  order_type_id text NOT NULL,
  operator_user_id text NOT NULL,
  origin_name text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, source, point_id),
  FOREIGN KEY (tenant_id, source) REFERENCES sources(tenant_id, source),
  FOREIGN KEY (tenant_id, point_id) REFERENCES points(tenant_id, point_id),
  FOREIGN KEY (organization_id, terminal_group_id) REFERENCES terminal_groups(organization_id, terminal_group_id)
);

-- API credentials. kind 'partner': tenant + source + point_ids. kind 'pos': bound to one terminal group (route).
-- The secret is AES-256-GCM encrypted under the configured master key.
CREATE TABLE credentials (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('partner', 'pos')),
  api_key text NOT NULL UNIQUE,
  secret_enc text NOT NULL,
  tenant_id text NOT NULL REFERENCES tenants(id),
  source text,
  point_ids jsonb,
  organization_id text,
  terminal_group_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

-- Single-use X-Request-ID per key, kept for at least twice the skew window.
CREATE TABLE request_ids (
  api_key text NOT NULL,
  request_id text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (api_key, request_id)
);
CREATE INDEX request_ids_expires ON request_ids (expires_at);

-- Delivery zones of a point. polygon holds [latitude, longitude] pairs as the spec publishes them.
CREATE TABLE delivery_zones (
  tenant_id text NOT NULL,
  point_id text NOT NULL,
  zone_id text NOT NULL,
  name text NOT NULL,
  polygon jsonb NOT NULL,
  min_order_minor integer NOT NULL DEFAULT 0,
  delivery_fee_minor integer NOT NULL DEFAULT 0,
  free_delivery_from_minor integer,
  eta_min integer,
  eta_max integer,
  priority integer NOT NULL DEFAULT 100,
  active boolean NOT NULL DEFAULT true,
  PRIMARY KEY (tenant_id, zone_id),
  FOREIGN KEY (tenant_id, point_id) REFERENCES points(tenant_id, point_id)
);
