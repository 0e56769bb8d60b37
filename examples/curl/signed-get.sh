#!/usr/bin/env bash
# Signed GET to the Delivery Partner API using only curl, openssl, sha256sum and date.
# Usage: examples/curl/signed-get.sh /v1/points
#        examples/curl/signed-get.sh /v1/orders 'externalOrderId=WEB-1'   (the query string is not signed)
#        examples/curl/signed-get.sh '/v1/orders/ID?source=website'        (same: the query is split off)
# Credentials: BASE_URL, API_KEY, API_SECRET, or data/demo-credentials.json (CREDENTIALS_FILE to override).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: $0 PATH [QUERY]" >&2; exit 2; }
load_credentials
empty="$(mktemp)"
trap 'rm -f "$empty"' EXIT
# GET signs the SHA-256 of the empty body (e3b0c442...b855).
# A query written into PATH ("/v1/orders/ID?source=website") is split off: only the path is signed.
path="${1%%\?*}"
query="${2:-}"
if [ "$path" != "$1" ]; then query="${1#*\?}"; fi
send GET "$path" "$query" "$empty"
