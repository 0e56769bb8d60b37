#!/usr/bin/env bash
# Signed POST to the Delivery Partner API using only curl, openssl, sha256sum and date.
# Usage: examples/curl/signed-post.sh /v1/checkout/calculate body.json
#        echo '{"deliveryType":"pickup"}' | examples/curl/signed-post.sh /v1/delivery/resolve -
# The body file is sent byte for byte (--data-binary) and exactly those bytes are hashed and signed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || { echo "usage: $0 PATH BODY_FILE|-" >&2; exit 2; }
load_credentials
body="$(mktemp)"
trap 'rm -f "$body"' EXIT
if [ "$2" = "-" ]; then cat > "$body"; else cat "$2" > "$body"; fi
send POST "$1" "" "$body"
