# Shared part of signed-get.sh and signed-post.sh: credentials and the HMAC signature.
# Spec: delivery-partner-api.md, Authentication. Needs only bash, curl, openssl, sha256sum, date, node (for
# reading the demo JSON file when the variables are not set) and uuidgen or /proc/sys/kernel/random/uuid.

# BASE_URL, API_KEY, API_SECRET from the environment, else from the demo credentials file that `npm start` writes.
load_credentials() {
  local here file
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  file="${CREDENTIALS_FILE:-$here/../../data/demo-credentials.json}"
  if [ -z "${BASE_URL:-}" ] || [ -z "${API_KEY:-}" ] || [ -z "${API_SECRET:-}" ]; then
    if [ ! -f "$file" ]; then
      echo "set BASE_URL, API_KEY and API_SECRET, or run npm start to create $file" >&2
      exit 2
    fi
    # jq is not guaranteed; node is (the project needs it).
    # CREDENTIALS_PROFILE=planned takes the key of the demo source with every per-source switch on.
    local pick='const f=require(process.argv[1]),p=process.argv[3]?f[process.argv[3]]:f;process.stdout.write(p[process.argv[2]])'
    BASE_URL="${BASE_URL:-$(node -e 'process.stdout.write(require(process.argv[1]).baseUrl)' "$file")}"
    API_KEY="${API_KEY:-$(node -e "$pick" "$file" apiKey "${CREDENTIALS_PROFILE:-}")}"
    API_SECRET="${API_SECRET:-$(node -e "$pick" "$file" apiSecret "${CREDENTIALS_PROFILE:-}")}"
  fi
  BASE_URL="${BASE_URL%/}"
}

new_uuid() {
  if command -v uuidgen >/dev/null 2>&1; then uuidgen | tr 'A-Z' 'a-z'; else cat /proc/sys/kernel/random/uuid; fi
}

# sign METHOD PATH BODY_FILE -> sets TIMESTAMP, REQUEST_ID, SIGNATURE.
# Canonical string: timestamp LF request-id LF METHOD LF path LF sha256hex(body), no trailing LF.
# PATH must be plain ASCII or already percent-escaped (it is signed exactly as sent).
sign() {
  local method="$1" path="$2" body_file="$3" body_hash
  TIMESTAMP="$(date +%s)"
  REQUEST_ID="$(new_uuid)"
  body_hash="$(sha256sum "$body_file" | cut -d' ' -f1)"
  # printf keeps the exact bytes: no trailing newline after the last part.
  # Note: the secret is an argument of openssl here (visible in ps on a shared machine); fine for a demo.
  SIGNATURE="$(printf '%s\n%s\n%s\n%s\n%s' "$TIMESTAMP" "$REQUEST_ID" "$method" "$path" "$body_hash" \
    | openssl dgst -sha256 -hmac "$API_SECRET" | sed 's/^.*= //')"
}

# send METHOD PATH QUERY BODY_FILE: prints the response body to stdout, the HTTP status to stderr;
# exits 1 for a status of 400 or more.
send() {
  local method="$1" path="$2" query="$3" body_file="$4" out status url
  sign "$method" "$path" "$body_file"
  url="$BASE_URL$path${query:+?$query}"
  out="$(mktemp)"
  local args=(-sS -o "$out" -w '%{http_code}' -X "$method"
    -H "X-API-Key: $API_KEY" -H "X-Timestamp: $TIMESTAMP" -H "X-Request-ID: $REQUEST_ID" -H "X-Signature: $SIGNATURE")
  if [ "$method" = "POST" ]; then args+=(-H 'Content-Type: application/json' --data-binary "@$body_file"); fi
  status="$(curl "${args[@]}" "$url")" || { rm -f "$out"; exit 1; }
  cat "$out"
  rm -f "$out"
  echo "HTTP $status (X-Request-ID $REQUEST_ID)" >&2
  [ "$status" -lt 400 ]
}
