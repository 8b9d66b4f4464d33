#!/usr/bin/env bash
# The proof service's examples (README), run with curl against `proofdesk serve` exactly as the
# README shows them: every query must reach DONE with real hashes. Exit 77 (skipped) without curl.
#
# Usage: tests/e2e/proof_curl_examples.sh path/to/proofdesk [fixtures-dir]
set -euo pipefail
BIN=$1
FIXTURES=${2:-}
command -v curl >/dev/null || { echo "curl is not installed"; exit 77; }
cd "$(dirname "$0")/../.."
SAMPLE=resources/samples/fibonacci.json
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$WORK/serve.err" ] && tail -20 "$WORK/serve.err"; exit 1; }
field() { sed -E "s/.*\"$1\":\"?([^\",}]*)\"?.*/\\1/"; }

KEY=$("$BIN" keys create --data-dir "$WORK/data" --project examples 2>/dev/null)
# shellcheck source=../support/proofdesk-serve.sh
. tests/support/proofdesk-serve.sh
start_proofdesk_serve "$BIN" "$WORK/data"

# Waits for a query to end; prints its record; fails unless it is DONE.
wait_done() {
    local id=$1 body status
    for _ in $(seq 1200); do
        body=$(curl -sf "$P/core-query/$id")
        status=$(echo "$body" | field status)
        case "$status" in DONE) echo "$body"; return 0 ;; FAILED) fail "$id FAILED: $body" ;; esac
        sleep 0.05
    done
    fail "$id did not finish"
}
created() { echo "$1" | grep -q '"coreQueryId"' || fail "no coreQueryId in: $1"; echo "$1" | field coreQueryId; }

# 1. POST /core-query: a program, proved (mock prover) and verified on L1 with a mocked fact.
R=$(curl -s -H "api-key: $KEY" -F programFile=@$SAMPLE -F layout=auto -F cairoVm=rust \
    -F cairoVersion=cairo0 -F result=PROOF_VERIFICATION_ON_L1 -F mockFactHash=true \
    -F network=TESTNET -F dedupId=example-1 "$P/core-query")
ID1=$(created "$R")
Q1=$(wait_done "$ID1")
echo "$Q1" | grep -q '"sharpFactHash":"0x[0-9a-f]\{64\}"' || fail "no sharpFactHash: $Q1"
FACT=$(echo "$Q1" | field sharpFactHash)
curl -sf "$P/fact-registry/L1/$FACT?mocked=true" | grep -q '"valid":true' || fail "fact not registered"
curl -sf "$P/core-query-by-dedup-id?dedupId=example-1&projectId=$(echo "$Q1" | field projectId)" \
    | grep -q "$ID1" || fail "dedup read"
curl -sf -H "api-key: $KEY" "$P/core-queries" | grep -q "$ID1" || fail "list"

# 2. POST /v1/submit-program, then /v1/trace-generation by programHash.
HASH=$(curl -sf "$P/v1/submit-program?apiKey=$KEY" -F programFile=@$SAMPLE -F cairoVersion=0 | field programHash)
[ "$HASH" = "$("$BIN" program-hash $SAMPLE)" ] || fail "program hash $HASH"
ID2=$(created "$(curl -s "$P/v1/trace-generation?apiKey=$KEY" -F programHash=$HASH -F cairoVersion=0)")
Q2=$(wait_done "$ID2")
curl -sf -H "api-key: $KEY" -o "$WORK/pie.zip" "$P/artifacts/$ID2/pie.zip" || fail "pie.zip"
# The sample writes the 11th Fibonacci number, 89 = 0x59.
[ "$(curl -sf "$P/artifacts/$ID2/output.json")" = '["0x59"]' ] || fail "sample output"

# 3. /v1/trace-generation-proof-generation (and without /v1): proven for real by our prover.
ID3=$(created "$(curl -s "$P/v1/trace-generation-proof-generation?apiKey=$KEY" \
    -F programFile=@$SAMPLE -F cairoVersion=0 -F prover=vendor_sharp -F layout=small)")
wait_done "$ID3" | grep -q '"isProofMocked":false' || fail "the proof is not real"
curl -sf -o "$WORK/proof.json" "$P/artifacts/$ID3/proof.json" || fail "proof.json"
"$BIN" verify "$WORK/proof.json" >/dev/null || fail "our verifier rejects the proof"
ID3B=$(created "$(curl -s "$P/trace-generation-proof-generation?apiKey=$KEY" \
    -F programHash=$HASH -F cairoVersion=0)")
wait_done "$ID3B" >/dev/null

# 4. /v1/l1/core-query/proof-generation-verification with the PIE from step 2.
ID4=$(created "$(curl -s "$P/v1/l1/core-query/proof-generation-verification?apiKey=$KEY" \
    -F pieFile=@"$WORK/pie.zip" -F mockFactHash=true)")
Q4=$(wait_done "$ID4")
[ "$(echo "$Q4" | field sharpFactHash)" = "$(echo "$Q2" | field sharpFactHash)" ] || fail "PIE fact"

# 5. /v1/l2/core-query/proof-verification with a Stone proof (the fixtures' one, when present).
PROOF="$FIXTURES/cairo/proofs/integrity_recursive_cairo0_stone5_keccak_160_lsb_example_proof.json"
if [ -n "$FIXTURES" ] && [ -f "$PROOF" ]; then
    ID5=$(created "$(curl -s "$P/v1/l2/core-query/proof-verification?apiKey=$KEY" \
        -F proofFile=@"$PROOF" -F mockFactHash=true -F stoneVersion=stone5 \
        -F memoryVerification=strict)")
    wait_done "$ID5" | grep -q '"chain":"L2"' || fail "L2 verification"
else
    echo "(no Stone proof fixture: the L2 example is skipped)"
fi

# 6. Buckets: create, submit two members, close, aggregated fact.
BUCKET=$(curl -sf -H "api-key: $KEY" -H 'Content-Type: application/json' \
    -d '{"externalId":"demo","nodeWidth":2,"mockProof":true}' "$P/buckets" | field id)
for i in 0 1; do
    created "$(curl -s -H "api-key: $KEY" -F programFile=@$SAMPLE -F bucketId=$BUCKET \
        -F bucketJobIndex=$i -F result=PROOF_GENERATION "$P/core-query")" >/dev/null
done
curl -sf -X POST -H "api-key: $KEY" "$P/buckets/close?bucketId=$BUCKET" | grep -q IN_PROGRESS \
    || fail "close"
# The bucket's own status: the first "status" of {"bucket": {...}, "queries": [...]}.
bucket_status() { echo "$1" | grep -o '"status":"[A-Z_]*"' | head -1 | cut -d'"' -f4; }
BUCKET_STATUS=""
for _ in $(seq 400); do
    B=$(curl -sf -H "api-key: $KEY" "$P/buckets/$BUCKET")
    BUCKET_STATUS=$(bucket_status "$B")
    [ "$BUCKET_STATUS" = DONE ] && break
    [ "$BUCKET_STATUS" = FAILED ] && fail "bucket FAILED: $B"
    sleep 0.05
done
[ "$BUCKET_STATUS" = DONE ] || fail "bucket not DONE: $B"
echo "$B" | grep -q '"step":"FACT_HASH_REGISTRATION"' || fail "no aggregator: $B"
curl -sf -H "api-key: $KEY" "$P/buckets" | grep -q "$BUCKET" || fail "bucket list"
# 7. A program whose own Python hint reads the input file: cairoVm=python (the server runs it).
SQUARES=resources/samples/sum_of_squares.json
ID7=$(created "$(curl -s -H "api-key: $KEY" -F programFile=@$SQUARES \
    -F inputFile=@resources/samples/sum_of_squares_input.json -F cairoVm=python \
    -F result=TRACE_GENERATION "$P/core-query")")
wait_done "$ID7" >/dev/null
# 3² + 4² + 12² = 169 = 0xa9.
[ "$(curl -sf "$P/artifacts/$ID7/output.json")" = '["0xa9"]' ] || fail "Python hint output"
echo "proof service examples: all DONE"
