#!/usr/bin/env bash
# The planned parts of the Delivery Partner API (docs/planned-features.md), served to sources with the
# per-source switch on (the demo's source `planned`; other sources get 404 not_found).
# Usage: examples/curl/planned.sh status
#        examples/curl/planned.sh loyalty +79990000001 [POINT_ID]
#        examples/curl/planned.sh orders +79990000001 [LIMIT] [CURSOR]
#        examples/curl/planned.sh addresses +79990000001
# Credentials: BASE_URL, API_KEY, API_SECRET, or the `planned` key of data/demo-credentials.json.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: $0 status | loyalty PHONE [POINT_ID] | orders PHONE [LIMIT] [CURSOR] | addresses PHONE" >&2; exit 2; }
CREDENTIALS_PROFILE="${CREDENTIALS_PROFILE:-planned}"
load_credentials
empty="$(mktemp)"
trap 'rm -f "$empty"' EXIT
# The phone goes into the path: its + is escaped as %2B, and the escaped path is what is signed.
phone_path() { printf '/v1/guests/%s' "${1/#+/%2B}"; }
case "$1" in
  status) send GET /v1/status "" "$empty" ;;
  loyalty) send GET "$(phone_path "$2")/loyalty" "${3:+pointId=$3}" "$empty" ;;
  orders)
    query="limit=${3:-20}"
    if [ -n "${4:-}" ]; then query="$query&cursor=$4"; fi
    send GET "$(phone_path "$2")/orders" "$query" "$empty"
    ;;
  addresses) send GET "$(phone_path "$2")/addresses" "" "$empty" ;;
  *) echo "unknown command $1" >&2; exit 2 ;;
esac
