#!/usr/bin/env bash
# The HTTP edge under load and abuse (issue #18), against a real `proofdesk serve`:
#   1. GET /core-query/{id} with wrk -t2 -c64, and nginx serving the same bytes as a static file
#      on the same machine in the same run (when nginx is installed): requests/s and p99 of both;
#   2. a fresh client's /is-alive while 500 slow clients each hold half a request head;
#   3. the server's peak memory (VmHWM) growth while one 200 MiB file is uploaded.
# The last lines (after "== figures") are `name value` pairs for run.sh.
#
# Usage: tests/bench/edge_bench.sh [path/to/proofdesk] [seconds]
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-build-rel/app/proofdesk}
SECONDS_PER_RUN=${2:-10}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)"; exit 1; }
[ -x "$BIN" ] || { echo "no proofdesk binary at $BIN"; exit 1; }

WORK=$(mktemp -d)
SERVER_PID=""
NGINX=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    [ -n "$NGINX" ] && nginx -c "$WORK/nginx.conf" -p "$WORK/nginx" -s stop 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

PORT=$((20000 + RANDOM % 20000))
URL="http://127.0.0.1:$PORT"
KEY=$("$BIN" keys create --data-dir "$WORK/data" --project bench 2>/dev/null)
"$BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" --prover mock \
    >"$WORK/serve.out" 2>/dev/null &
SERVER_PID=$!
for _ in $(seq 100); do curl -sf "$URL/is-alive" >/dev/null && break; sleep 0.1; done

ID=$(curl -sf -H "api-key: $KEY" -F programFile=@resources/samples/fibonacci.json \
    -F result=TRACE_GENERATION "$URL/core-query" | sed -E 's/.*"coreQueryId":"([^"]+)".*/\1/')
for _ in $(seq 100); do
    curl -sf "$URL/core-query/$ID" | grep -q '"status":"DONE"' && break; sleep 0.1
done
curl -sf "$URL/core-query/$ID" >"$WORK/query.json"

figure() { awk -v what="$1" '$1 == "Requests/sec:" && what == "rps" {print $2}
    $1 == "99%" && what == "p99" {v=$2; if (v ~ /us$/) {sub("us","",v); v/=1000}
    else if (v ~ /ms$/) {sub("ms","",v)} else if (v ~ /s$/) {sub("s","",v); v*=1000}; print v}' "$2"; }

echo "== GET /core-query/{id}, 64 connections, ${SECONDS_PER_RUN}s ($(wc -c <"$WORK/query.json") bytes)"
wrk -t2 -c64 -d"${SECONDS_PER_RUN}s" --latency "$URL/core-query/$ID" | tee "$WORK/ours.txt"
NGINX_RPS="" NGINX_P99=""
if command -v nginx >/dev/null; then
    NPORT=$((PORT + 1))
    mkdir -p "$WORK/nginx/root" "$WORK/nginx/logs"
    cp "$WORK/query.json" "$WORK/nginx/root/q.json"
    # nginx's workers drop to an unprivileged user when started as root: let them read the file.
    chmod 0755 "$WORK" "$WORK/nginx" "$WORK/nginx/root"
    chmod 0644 "$WORK/nginx/root/q.json"
    cat >"$WORK/nginx.conf" <<CONF
worker_processes auto;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log;
events { worker_connections 1024; }
http { access_log off; server { listen 127.0.0.1:$NPORT; root $WORK/nginx/root;
       default_type application/json; } }
CONF
    nginx -c "$WORK/nginx.conf" -p "$WORK/nginx" && NGINX=1
    sleep 0.5
    echo "== nginx, the same bytes as a static file"
    wrk -t2 -c64 -d"${SECONDS_PER_RUN}s" --latency "http://127.0.0.1:$NPORT/q.json" | tee "$WORK/nginx.txt"
    if grep -q "Non-2xx" "$WORK/nginx.txt"; then
        echo "nginx answered errors: its figures are not comparable"; exit 1
    fi
    NGINX_RPS=$(figure rps "$WORK/nginx.txt")
    NGINX_P99=$(figure p99 "$WORK/nginx.txt")
fi
OURS_RPS=$(figure rps "$WORK/ours.txt")
OURS_P99=$(figure p99 "$WORK/ours.txt")

echo "== a fresh client while 500 slow clients hold half a request each"
SLOW_MS=$(python3 - "$PORT" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
slow = []
for _ in range(500):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /is-alive HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    slow.append(s)
start = time.monotonic()
fresh = socket.create_connection(("127.0.0.1", port))
fresh.sendall(b"GET /is-alive HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
answer = fresh.recv(4096)
elapsed = (time.monotonic() - start) * 1000
assert answer.startswith(b"HTTP/1.1 200"), answer
print(f"{elapsed:.2f}")
PY
)
echo "fresh client answered in $SLOW_MS ms"

echo "== one 200 MiB upload (under the 256 MiB limit): the server's peak memory growth"
head -c $((200 << 20)) /dev/urandom >"$WORK/big.bin"
BEFORE=$(awk '/VmHWM/ {print $2}' "/proc/$SERVER_PID/status")
UPLOAD_STATUS=$(curl -s -o "$WORK/upload.json" -w '%{http_code}' -H "api-key: $KEY" \
    -F pieFile=@"$WORK/big.bin" -F result=PROOF_GENERATION "$URL/core-query")
echo "upload answered $UPLOAD_STATUS: $(head -c 200 "$WORK/upload.json")"
AFTER=$(awk '/VmHWM/ {print $2}' "/proc/$SERVER_PID/status")
GROWTH=$(( (AFTER - BEFORE) / 1024 ))
echo "peak RSS $((BEFORE / 1024)) MiB before, $((AFTER / 1024)) MiB after: +$GROWTH MiB for 200 MiB"

echo "== figures"
echo "edge_get_core_query_per_second $OURS_RPS"
echo "edge_get_core_query_p99_ms $OURS_P99"
[ -n "$NGINX_RPS" ] && echo "edge_nginx_per_second $NGINX_RPS"
[ -n "$NGINX_P99" ] && echo "edge_nginx_p99_ms $NGINX_P99"
[ -n "$NGINX_RPS" ] && awk -v a="$OURS_RPS" -v b="$NGINX_RPS" 'BEGIN {printf "edge_share_of_nginx_percent %.0f\n", 100 * a / b}'
[ -n "$NGINX_P99" ] && awk -v a="$OURS_P99" -v b="$NGINX_P99" 'BEGIN {printf "edge_p99_ratio_to_nginx %.2f\n", a / b}'
echo "edge_fresh_client_ms_with_500_slow $SLOW_MS"
echo "edge_upload_200mib_peak_growth_mib $GROWTH"
