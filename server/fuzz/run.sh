#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI document with schemathesis, against a running server
# (`make test` passes its debug test binary) with a fresh SQLite database, signed in as the
# owner. Fixed seed, bounded examples. The document is fetched once and checked with
# openapi-spec-validator first; the fuzzer reads that same file.
#   server/fuzz/run.sh [BINARY]     (default target/release/portfolio; run from the repository root)
# Environment: FUZZ_EXAMPLES (per operation, default 40), FUZZ_SEED (default 20261123).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/target/release/portfolio}
venv=$root/target/fuzz-venv
examples=${FUZZ_EXAMPLES:-40}
seed=${FUZZ_SEED:-20261123}

# The virtual environment with the pinned requirements (server/fuzz/requirements.txt), built
# when missing or out of date.
"$root/scripts/python-venv.sh"

work=$(mktemp -d)
server=
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
email=owner@example.com
password=fuzz-the-violet-harbour-42
# The server's limits raised for the run, so that the fuzzer meets the API rather than them.
PORTFOLIO_OWNER_EMAIL=$email PORTFOLIO_OWNER_PASSWORD=$password RUST_LOG=warn \
    "$bin" serve --listen "127.0.0.1:$port" --database-url "sqlite://$work/fuzz.db" \
    --max-connections 4096 --request-timeout-secs 60 --header-timeout-secs 60 \
    --contact-per-minute 100000 --contact-per-hour 100000 \
    >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
    curl -fsS "$base/healthz" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.1
done

# Signed in as the owner: the session cookie goes with every request.
cookie=$("$venv/bin/python" - "$base" "$email" "$password" <<'PY'
import sys, requests
base, email, password = sys.argv[1:]
response = requests.post(f"{base}/api/session", json={"email": email, "password": password}, timeout=30)
response.raise_for_status()
# A few messages, so that the endpoints of one message find some.
for i in range(3):
    requests.post(f"{base}/api/contact", timeout=30, json={
        "name": f"Fuzz {i}", "email": "fuzz@example.com", "subject": "Hello",
        "message": "A message for the fuzzer.", "form-name": "contact", "website": "", "elapsedMs": 5000,
    }).raise_for_status()
print("; ".join(f"{c.name}={c.value}" for c in response.cookies))
PY
)

# The API's description, fetched once: valid OpenAPI (its version's schema, unique operationIds,
# every path parameter declared, ...) or the stage fails; the fuzzer reads this same file.
document=$work/openapi.json
curl -fsS "$base/api/openapi.json" -o "$document"
if ! "$venv/bin/openapi-spec-validator" --validation-errors all "$document" >"$work/validator.log" 2>&1; then
    echo "fuzz: the API's description is not valid OpenAPI; openapi-spec-validator says:" >&2
    tail -n 20 "$work/validator.log" >&2
    exit 1
fi
echo "openapi-spec-validator: $(tail -n 1 "$work/validator.log")"

status=0
cd "$work" # schemathesis keeps its cache in the working folder: the throwaway one
# The owner's session rides in the Cookie header, as before the description named it as a
# security scheme. Left to generate security parameters, schemathesis would take that cookie for
# one of its own to make up or leave out, and then flag every owner's request it "left out" (the
# header still signed it in) as invalid data accepted.
"$venv/bin/st" run "$document" \
    --url "$base" \
    --header "Cookie: $cookie" \
    --generation-with-security-parameters false \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection \
    --exclude-name "DELETE /api/session" \
    --exclude-name "DELETE /api/sessions" \
    --exclude-name "DELETE /api/sessions/{id}" \
    --exclude-name "PUT /api/session/password" \
    --seed "$seed" --max-examples "$examples" --workers 1 \
    --generation-database none --no-color \
    --report-dir "$work/report" || status=$?
if [ "$status" != 0 ]; then
    echo "fuzz: schemathesis found problems (exit $status); the server's log:" >&2
    tail -n 50 "$work/server.log" >&2
fi
exit "$status"
