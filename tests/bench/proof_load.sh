#!/usr/bin/env bash
# Load benchmark against a real `proofdesk serve`, driven by wrk:
#   1. durable POST /core-query submissions per second (multipart, a registered programHash,
#      result TRACE_GENERATION) at 16 and at 64 connections; target >= 300/s;
#   2. GET /core-query/{id} per second at 16 and 64 connections; targets >= 10,000/s and
#      p99 < 20 ms at 64;
#   3. GET /get_queries/{request_id} (request service) per second at 16 and 64 connections.
# Afterwards it checks that every acknowledged submission is in the store, and reports the
# server's peak RSS. The last lines (after "== figures") are `name value` pairs for run.sh.
#
# Usage: tests/bench/proof_load.sh [path/to/proofdesk] [seconds]
# Build Release first (cmake -S . -B build-rel -DCMAKE_BUILD_TYPE=Release && cmake --build build-rel).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-build-rel/app/proofdesk}
SECONDS_PER_RUN=${2:-10}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)"; exit 1; }
[ -x "$BIN" ] || { echo "no proofdesk binary at $BIN"; exit 1; }

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

PORT=$((20000 + RANDOM % 20000))
URL="http://127.0.0.1:$PORT"
KEY=$("$BIN" keys create --data-dir "$WORK/data" --project bench 2>/dev/null)
"$BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" --prover mock \
    --http-threads 128 >"$WORK/serve.out" 2>/dev/null &
SERVER_PID=$!
for _ in $(seq 100); do curl -sf "$URL/is-alive" >/dev/null && break; sleep 0.1; done

# A program of ours (main writes 7 to the output), registered once.
cat >"$WORK/program.json" <<'JSON'
{"prime": "0x800000000000011000000000000000000000000000000000000000000000001",
 "data": ["0x480680017fff8000", "0x7", "0x400280007ffd7fff", "0x482680017ffd8000", "0x1",
          "0x208b7fff7fff7ffe"],
 "builtins": ["output"], "hints": {},
 "identifiers": {"__main__.main": {"type": "function", "pc": 0}},
 "reference_manager": {"references": []}, "main_scope": "__main__", "attributes": [],
 "debug_info": null}
JSON
HASH=$(curl -sf "$URL/v1/submit-program?apiKey=$KEY" -F programFile=@"$WORK/program.json" \
    -F cairoVersion=0 | sed -E 's/.*"programHash":"([^"]+)".*/\1/')

BOUNDARY=proofdeskbench
printf -- '--%s\r\nContent-Disposition: form-data; name="programHash"\r\n\r\n%s\r\n--%s\r\nContent-Disposition: form-data; name="result"\r\n\r\nTRACE_GENERATION\r\n--%s--\r\n' \
    "$BOUNDARY" "$HASH" "$BOUNDARY" "$BOUNDARY" >"$WORK/body"
cat >"$WORK/post.lua" <<LUA
local f = io.open("$WORK/body", "rb")
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "multipart/form-data; boundary=$BOUNDARY"
wrk.headers["api-key"] = "$KEY"
LUA

POST_REQUESTS=0
NON2XX=0
for CONNECTIONS in 16 64; do
    echo "== POST /core-query, $CONNECTIONS connections, ${SECONDS_PER_RUN}s"
    wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency -s "$WORK/post.lua" \
        "$URL/core-query" | tee "$WORK/post$CONNECTIONS.txt"
    POST_REQUESTS=$((POST_REQUESTS + $(awk '/requests in/ {print $1}' "$WORK/post$CONNECTIONS.txt")))
    N=$(awk '/Non-2xx/ {print $5}' "$WORK/post$CONNECTIONS.txt"); NON2XX=$((NON2XX + ${N:-0}))
done
POST_RATE=$(awk '/Requests\/sec/ {print $2}' "$WORK/post16.txt")
POST_RATE64=$(awk '/Requests\/sec/ {print $2}' "$WORK/post64.txt")

# Let the pipeline finish the submitted trace jobs first, so the reads below measure the read path
# rather than two job workers competing for the two cores; the drain rate is a figure of its own.
total_of() { curl -sf "$URL/core-queries?limit=1$1" -H "api-key: $KEY" | sed -E 's/.*"total":([0-9]+).*/\1/'; }
DRAIN_START=$(date +%s.%N)
STORED=$(total_of "")
while [ "$(total_of "&status=DONE")" -lt "$STORED" ]; do
    [ "$(total_of "&status=FAILED")" -gt 0 ] && { echo "a benchmark query FAILED"; exit 1; }
    sleep 0.5
done
DRAIN_SECONDS=$(awk -v a="$DRAIN_START" -v b="$(date +%s.%N)" 'BEGIN{print b - a}')
PIPELINE_RATE=$(awk -v n="$STORED" -v s="$DRAIN_SECONDS" -v t="$((2 * SECONDS_PER_RUN))" \
    'BEGIN{printf "%.0f", n / (t + s)}')
ID=$(curl -sf "$URL/core-queries?limit=1" -H "api-key: $KEY" | sed -E 's/.*"id":"([^"]+)".*/\1/')
REQUEST_ID=$(curl -sf -X POST "$URL/submit-request" -H "api-key: $KEY" \
    -d '{"destination_chain_id":"1","data":{"1":{"block:1":null}}}' |
    sed -E 's/.*"request_id":"([^"]+)".*/\1/')
for CONNECTIONS in 16 64; do
    echo "== GET /core-query/$ID, $CONNECTIONS connections, ${SECONDS_PER_RUN}s"
    wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency "$URL/core-query/$ID" |
        tee "$WORK/get$CONNECTIONS.txt"
    echo "== GET /get_queries/$REQUEST_ID, $CONNECTIONS connections, ${SECONDS_PER_RUN}s"
    wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency "$URL/get_queries/$REQUEST_ID" |
        tee "$WORK/queries$CONNECTIONS.txt"
done
rate() { awk '/Requests\/sec/ {print $2}' "$1"; }
p99() { awk '$1 == "99%" {print $2}' "$1"; }
GET_RATE=$(rate "$WORK/get64.txt")
GET_P99=$(p99 "$WORK/get64.txt")

RSS_KB=$(awk '/VmHWM/ {print $2}' /proc/"$SERVER_PID"/status)
to_ms() { case "$1" in *us) awk -v v="${1%us}" 'BEGIN{print v/1000}';; *ms) echo "${1%ms}";; *s) awk -v v="${1%s}" 'BEGIN{print v*1000}';; esac; }
P99_MS=$(to_ms "$GET_P99")
echo
printf '%-44s %12s %12s %s\n' figure value target result
row() { printf '%-44s %12s %12s %s\n' "$1" "$2" "$3" "$4"; }
row "POST /core-query durable submissions/s" "$POST_RATE" ">= 300" \
    "$(awk -v v="$POST_RATE" 'BEGIN{print (v >= 300) ? "pass" : "FAIL"}')"
row "GET /core-query/{id} requests/s (64 conn)" "$GET_RATE" ">= 10000" \
    "$(awk -v v="$GET_RATE" 'BEGIN{print (v >= 10000) ? "pass" : "FAIL"}')"
row "GET /core-query/{id} p99 latency ms" "$P99_MS" "< 20" \
    "$(awk -v v="$P99_MS" 'BEGIN{print (v < 20) ? "pass" : "FAIL"}')"
row "acknowledged submissions stored" "$STORED/$((POST_REQUESTS - NON2XX))" "all" \
    "$([ "$STORED" -ge $((POST_REQUESTS - NON2XX)) ] && echo pass || echo FAIL)"
row "trace-generation queries finished/s" "$PIPELINE_RATE" "-" "-"
row "server peak RSS MiB" "$((RSS_KB / 1024))" "-" "-"
echo "== figures"
echo "load_post_core_query_per_second_16 $POST_RATE"
echo "load_post_core_query_per_second_64 $POST_RATE64"
echo "load_get_core_query_per_second_16 $(rate "$WORK/get16.txt")"
echo "load_get_core_query_per_second_64 $GET_RATE"
echo "load_get_core_query_p99_ms_16 $(to_ms "$(p99 "$WORK/get16.txt")")"
echo "load_get_core_query_p99_ms_64 $P99_MS"
echo "load_get_queries_per_second_16 $(rate "$WORK/queries16.txt")"
echo "load_get_queries_per_second_64 $(rate "$WORK/queries64.txt")"
echo "load_get_queries_p99_ms_64 $(to_ms "$(p99 "$WORK/queries64.txt")")"
echo "load_acknowledged_stored $STORED $((POST_REQUESTS - NON2XX))"
echo "load_pipeline_queries_per_second $PIPELINE_RATE"
echo "load_server_peak_rss_mib $((RSS_KB / 1024))"
