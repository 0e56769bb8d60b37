#!/usr/bin/env bash
# A complete checkout order with curl only (plus node to edit JSON, since jq is not guaranteed):
# calculate → create the order with the calculation's calculationId and total → show its status.
# Usage: examples/curl/place-order.sh [POINT_ID]   (default: the demo's collecting point)
# Then: examples/curl/signed-get.sh "/v1/orders/<id>?source=website" to watch the state move.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/lib.sh"
load_credentials
file="${CREDENTIALS_FILE:-$here/../../data/demo-credentials.json}"
point="${1:-$(node -e 'process.stdout.write(require(process.argv[1]).orderPointId ?? "101")' "$file")}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. the menu: take the first two available dishes
BASE_URL="$BASE_URL" API_KEY="$API_KEY" API_SECRET="$API_SECRET" "$here/signed-get.sh" "/v1/points/$point/menu" > "$work/menu.json"
node -e '
  const m = require(process.argv[1]);
  const items = m.items.filter((i) => i.available).slice(0, 2).map((i) => ({ id: i.id, quantity: "1" }));
  process.stdout.write(JSON.stringify({ pointId: m.pointId, deliveryType: "pickup", items, guest: { phone: "+79990000001" }, coupon: "WELCOME200" }));
' "$work/menu.json" > "$work/cart.json"

# 2. the calculation (prices only from the server menu; no side effects)
BASE_URL="$BASE_URL" API_KEY="$API_KEY" API_SECRET="$API_SECRET" "$here/signed-post.sh" /v1/checkout/calculate "$work/cart.json" > "$work/calc.json"
node -e 'const c = require(process.argv[1]); console.error(`total ${c.total.amountMinor / 100} RUB, coupon ${c.coupon.status}`)' "$work/calc.json"

# 3. the order: same cart, the calculation's calculationId, payment.amountMinor = the calculation's total
node -e '
  const c = require(process.argv[1]);
  const order = {
    schemaVersion: 1, source: process.argv[2], externalOrderId: `curl-${Date.now()}`, externalPointId: c.pointId,
    guest: { name: "Иван", phone: "+79990000001" }, address: { city: "Москва", street: "Тверская улица", house: "1" },
    items: c.items.map((l) => ({ externalProductId: l.id, quantity: l.quantity, price: l.unitPrice })),
    total: { amountMinor: c.items.reduce((s, l) => s + l.lineTotal.amountMinor, 0), currency: "RUB" },
    deliveryType: c.deliveryType, coupon: "WELCOME200", calculationId: c.calculationId,
    payment: { method: "cash", paid: false, amountMinor: c.total.amountMinor },
  };
  process.stdout.write(JSON.stringify(order));
' "$work/calc.json" "$(node -e 'process.stdout.write(require(process.argv[1]).source ?? "website")' "$file")" > "$work/order.json"
BASE_URL="$BASE_URL" API_KEY="$API_KEY" API_SECRET="$API_SECRET" "$here/signed-post.sh" /v1/orders "$work/order.json"
echo
