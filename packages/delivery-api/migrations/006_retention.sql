-- Retention (issue 13): the purge of delivered webhook deliveries finds old ones by delivery time without a scan.
CREATE INDEX webhook_deliveries_delivered ON webhook_deliveries (delivered_at) WHERE status = 'delivered';
