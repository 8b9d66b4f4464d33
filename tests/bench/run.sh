#!/usr/bin/env bash
# One benchmark report (issue #7): builds Release into build-rel, runs every committed benchmark
# of the project and the wrk load test, and prints one table -- figure, value, target, pass/fail.
#   tests/bench/run.sh [SECONDS_PER_LOAD_RUN]        (default 10; about 10 minutes in all)
# Needs wrk and, for the request-service figures, anvil (both installed by .ci/install-deps).
set -euo pipefail
cd "$(dirname "$0")/../.."
LOAD_SECONDS=${1:-10}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

cmake -S . -B build-rel -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-rel -j"$(nproc)" >/dev/null

echo "== sign-in round trips"; build-rel/tests/signin_roundtrip_bench --clients 8 --seconds 10 | tee "$OUT/signin.txt"
echo "== Cairo VM and STARK hashes"; build-rel/tests/cairo_vm_bench | tee "$OUT/vm.txt"
echo "== chain (headers, MMRs, 10,000-block request)"; build-rel/tests/chain_bench --e2e | tee "$OUT/chain.txt"
echo "== load (wrk)"; tests/bench/proof_load.sh build-rel/app/proofdesk "$LOAD_SECONDS" | tee "$OUT/load.txt"
echo "== HTTP edge (wrk vs nginx, slow clients, uploads)"; tests/bench/edge_bench.sh build-rel/app/proofdesk "$LOAD_SECONDS" | tee "$OUT/edge.txt"
echo "== sandboxed trace generation"; build-rel/tests/sandbox_bench --runs 50 | tee "$OUT/sandbox.txt"
echo "== STARK verifier (fixture proofs)"; build-rel/tests/stark_verifier_bench | tee "$OUT/stark.txt"
echo "== team store (a throwaway PostgreSQL cluster)"
tests/support/with-postgres.sh build-rel/tests/team_store_bench | tee "$OUT/team.txt" || true
# The prover on the Fibonacci statement of ../shared/fixtures, one process per size:
# PROVER_LOG_STEPS lists the sizes (default 16, about 40 s; "14 16 18 20" for the whole table —
# on 2 cores with AVX-512 IFMA 2^18 takes ~2.4 min for both profiles, 2^20 `time` ~2.7 min and
# ~7.4 GiB, its `size` run several times longer).
if [ -f ../shared/fixtures/cairo/programs/proof_mode/fibonacci_program_input.json ]; then
    for k in ${PROVER_LOG_STEPS:-16}; do
        echo "== STARK prover, 2^$k steps"
        build-rel/tests/stark_prover_bench --log-steps "$k" --write-proof "$OUT/proof_2^$k.json" \
            ../shared/fixtures | tee -a "$OUT/prover.txt"
        echo "== STARK prover, 2^$k steps, --optimize time"
        build-rel/tests/stark_prover_bench --log-steps "$k" --optimize time ../shared/fixtures |
            tee -a "$OUT/prover.txt"
    done
fi
# The 2-thread / 1-thread ratio at 2^14 steps, phase by phase, over 7 alternating pairs, and the
# machine's own bound on the prover's kernels (issue #48; about a minute and a half).
if [ -f ../shared/fixtures/cairo/programs/proof_mode/fibonacci_program_input.json ]; then
    echo "== STARK prover, 1 thread against $(nproc)"
    tests/bench/thread_ratio.sh build-rel 7 14 time | tee "$OUT/threads.txt"
fi
# `proofdesk verify` as a process on the 2^16 size proof (issue #48): the median wall time of 11
# runs, start-up, reading and verifying included.
if [ -f "$OUT/proof_2^16.json" ]; then
    echo "== proofdesk verify, 2^16 size proof, 11 runs"
    for _ in $(seq 11); do
        start=$(date +%s%N)
        build-rel/app/proofdesk verify "$OUT/proof_2^16.json" >/dev/null
        echo $((($(date +%s%N) - start) / 1000))
    done | sort -n | awk 'NR == 6 {printf "verify_cli_2^16_median_ms %.1f\n", $1 / 1000}' |
        tee "$OUT/verify_cli.txt"
fi
# Layout auto (issue #48): the cheapest layout that holds what the run uses, on two Cairo 1
# statements of ../shared/fixtures proven end to end by `proofdesk prove` (default profile).
prove_timed() { # figure-prefix, then proofdesk prove's arguments
    local name=$1
    shift
    /usr/bin/time -f "%e %M" -o "$OUT/time.txt" build-rel/app/proofdesk prove "$@" \
        --out_file "$OUT/proof.json" | grep -E '^(proof|parameters):'
    awk -v n="$name" '{printf "%s_seconds %s\n%s_peak_rss_mib %d\n", n, $1, n, $2 / 1024}' \
        "$OUT/time.txt" | tee -a "$OUT/layouts.txt"
}
BOOTLOADER=../shared/fixtures/cairo/runs/moonsong_bootloader_fibonacci_starknet_with_keccak/bootloader-v0.13.0.json
if [ -f "$BOOTLOADER" ] && [ -d ../shared/fixtures/cairo1 ]; then
    echo "== layout auto: an 18-step Cairo 1 PIE through the bootloader"
    prove_timed auto_cairo1_pie_noop --program "$BOOTLOADER" \
        --cairo_pie ../shared/fixtures/cairo1/pie_noop_mkus/cairo_pie.zip --layout auto
    echo "== layout auto: the BLAKE2s chain executable, argument 100"
    prove_timed auto_blake2s_chain --arguments 100 \
        --executable ../shared/fixtures/cairo1/exe_blake2s_chain_cairo_prove_example/example.executable.json
fi
if [ -x build-rel/tests/console_model_bench ]; then
    echo "== console"
    QT_QPA_PLATFORM=offscreen build-rel/tests/console_model_bench | tee "$OUT/console.txt"
    tests/bench/console_startup.sh build-rel/app/proofdesk | tee "$OUT/startup.txt"
fi

value() { awk -v k="$2" '$1 == k {print $2; exit}' "$OUT/$1" 2>/dev/null; }
printf '\n%-58s %14s %12s  %s\n' figure value target result
row() { # name value comparison threshold
    local result="-"
    if [ -n "${2:-}" ] && [ -n "${3:-}" ]; then
        result=$(awk -v v="$2" -v op="$3" -v t="$4" 'BEGIN {
            ok = (op == ">=") ? (v >= t) : (v < t); print ok ? "pass" : "FAIL" }')
    fi
    printf '%-58s %14s %12s  %s\n' "$1" "${2:-n/a}" "${3:+$3 ${4:-}}" "${2:+$result}"
}
row "sign-in round trips/s (8 clients)" "$(value signin.txt signin_roundtrips_per_second)" ">=" 300
row "team store: trivial jobs claimed/s, 4 workers" "$(value team.txt team_claims_per_second_4_workers)" ">=" 500
row "team store: submit-to-claim p99 (ms, NOTIFY)" "$(value team.txt team_submit_to_claim_p99_ms)" "<" 50
row "team store: killed worker's job runs again (s, 3 s lease)" "$(value team.txt team_rerun_after_kill_seconds)" "<" 8
row "VM steps/s, no trace (issue #48: 10 M)" "$(value vm.txt vm_steps_per_second_no_trace)" ">=" 10000000
row "VM steps/s, trace and memory files" "$(value vm.txt vm_steps_per_second_with_trace_and_memory_files)" ">=" 2000000
row "VM proof-mode peak RSS bytes/step" "$(value vm.txt vm_proof_mode_peak_rss_bytes_per_step)" "<" 120
row "VM steps/s, hint every other step, native hints" "$(value vm.txt vm_hint_loop_steps_per_second_native_hints)"
row "VM steps/s, hint every other step, Python hints" "$(value vm.txt vm_hint_loop_steps_per_second_python_hints)"
row "Pedersen hashes/s" "$(value vm.txt pedersen_hashes_per_second)" ">=" 50000
row "Poseidon hashes/s" "$(value vm.txt poseidon_hashes_per_second)" ">=" 150000
row "header RLP + keccak verifications/s" "$(value chain.txt chain_header_verifications_per_second)" ">=" 100000
row "Keccak MMR appends/s" "$(value chain.txt mmr_keccak_appends_per_second)" ">=" 500000
row "Poseidon MMR appends/s" "$(value chain.txt mmr_poseidon_appends_per_second)" ">=" 100000
row "10,000-block range request, Keccak MMR (s)" "$(value chain.txt range_request_10000_blocks_keccak_seconds)"
row "10,000-block range request, Poseidon MMR (s)" "$(value chain.txt range_request_10000_blocks_poseidon_seconds)"
row "POST /core-query durable/s, 16 connections" "$(value load.txt load_post_core_query_per_second_16)" ">=" 300
row "POST /core-query durable/s, 64 connections" "$(value load.txt load_post_core_query_per_second_64)" ">=" 300
row "GET /core-query/{id}/s, 16 connections" "$(value load.txt load_get_core_query_per_second_16)" ">=" 10000
row "GET /core-query/{id}/s, 64 connections" "$(value load.txt load_get_core_query_per_second_64)" ">=" 10000
row "GET /core-query/{id} p99 ms, 64 connections" "$(value load.txt load_get_core_query_p99_ms_64)" "<" 20
row "GET /get_queries/{id}/s, 16 connections" "$(value load.txt load_get_queries_per_second_16)"
row "GET /get_queries/{id}/s, 64 connections" "$(value load.txt load_get_queries_per_second_64)"
row "GET /get_queries/{id} p99 ms, 64 connections" "$(value load.txt load_get_queries_p99_ms_64)"
row "GET /core-query/{id}/s, 64 connections, % of nginx (same bytes)" "$(value edge.txt edge_share_of_nginx_percent)" ">=" 50
row "GET /core-query/{id} p99 / nginx's p99, 64 connections" "$(value edge.txt edge_p99_ratio_to_nginx)" "<" 2
row "fresh client answered with 500 slow clients open (ms)" "$(value edge.txt edge_fresh_client_ms_with_500_slow)" "<" 1000
row "server peak RSS growth for one 200 MiB upload (MiB)" "$(value edge.txt edge_upload_200mib_peak_growth_mib)" "<" 240
row "sandboxed trace generation, extra ms over in-process" "$(value sandbox.txt sandbox_trace_overhead_ms)" "<" 15
row "STARK verify, integrity recursive stone6 keccak, median ms" "$(value stark.txt stark_verify_recursive_stone6_keccak_ms)" "<" 25
row "STARK verify, slowest fixture proof, median ms" "$(value stark.txt stark_verify_slowest_ms)" "<" 150
row "STARK verify, peak RSS of the benchmark process (MiB)" "$(value stark.txt stark_verify_peak_rss_mib)" "<" 64
row "proofdesk verify as a process, 2^16 size proof, median ms" "$(value verify_cli.txt verify_cli_2^16_median_ms)" "<" 60
row "STARK prove 2^16 steps, small, keccak channel, 96 bits (s)" "$(value prover.txt prover_stone_2^16_seconds)" "<" 90
row "STARK prove 2^16 steps, peak RSS (MiB)" "$(value prover.txt prover_stone_2^16_peak_rss_mib)" "<" 1144
row "STARK prove 2^16 steps, --optimize time (s)" "$(value prover.txt prover_stone_time_2^16_seconds)" "<" 25
row "STARK prove 2^16 steps, --optimize time, peak RSS (MiB)" "$(value prover.txt prover_stone_time_2^16_peak_rss_mib)" "<" 600
for k in ${PROVER_LOG_STEPS:-16}; do
    [ "$k" = 16 ] && continue
    case $k in
    18) row "STARK prove 2^18 steps (s)" "$(value prover.txt prover_stone_2^18_seconds)" "<" 360
        row "STARK prove 2^18 steps, peak RSS (MiB)" "$(value prover.txt prover_stone_2^18_peak_rss_mib)" "<" 3814 ;;
    *) row "STARK prove 2^$k steps (s)" "$(value prover.txt "prover_stone_2^${k}_seconds")"
       row "STARK prove 2^$k steps, peak RSS (MiB)" "$(value prover.txt "prover_stone_2^${k}_peak_rss_mib")" ;;
    esac
done
threads=$(nproc)
row "STARK prove 2^14 steps, $threads threads / 1, median of 7 pairs" "$(value threads.txt "prover_thread_ratio_${threads}_2^14_time")" ">=" 1.85
row "  its threads' busy share (1 = never waiting)" "$(value threads.txt "prover_thread_busy_${threads}_2^14_time")"
row "  its CPU time on $threads threads / on 1 (1 = cores independent)" "$(value threads.txt "prover_thread_cpu_cost_${threads}_2^14_time")"
row "  machine bound: packed field products, $threads threads / 1" "$(value threads.txt "thread_ceiling_field_products_${threads}")"
row "  machine bound: Keccak-f, $threads threads / 1" "$(value threads.txt "thread_ceiling_keccak_${threads}")"
row "  machine bound: memory stream, $threads threads / 1" "$(value threads.txt "thread_ceiling_memory_stream_${threads}")"
row "auto layout: 18-step Cairo 1 PIE via the bootloader (s)" "$(value layouts.txt auto_cairo1_pie_noop_seconds)" "<" 10
row "auto layout: 18-step Cairo 1 PIE, peak RSS (MiB)" "$(value layouts.txt auto_cairo1_pie_noop_peak_rss_mib)" "<" 512
row "auto layout: BLAKE2s chain executable (s)" "$(value layouts.txt auto_blake2s_chain_seconds)" "<" 20
row "trace-generation queries finished/s" "$(value load.txt load_pipeline_queries_per_second)"
row "server peak RSS under load (MiB)" "$(value load.txt load_server_peak_rss_mib)"
stored=$(awk '$1 == "load_acknowledged_stored" {print $2 "/" $3}' "$OUT/load.txt")
row "acknowledged POSTs found stored" "$stored"
if [ -f "$OUT/console.txt" ]; then
    row "console start to a shown window, median (ms)" "$(awk '/^median/ {print $2}' "$OUT/startup.txt")" "<" 1500
fi
