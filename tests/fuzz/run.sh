#!/usr/bin/env bash
# Runs fuzz targets for N seconds each on a copy of their seed corpora (tests/fuzz/corpus).
#   tests/fuzz/run.sh BUILD_DIR [SECONDS] [TARGET...]
# BUILD_DIR is a build configured with -DPROOFDESK_FUZZ=ON (clang); without TARGETs every target
# runs. Exits non-zero on a crash; the crashing input is left in the working directory (crash-*).
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [SECONDS] [TARGET...]}
seconds=${2:-30}
shift $(( $# < 2 ? $# : 2 ))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(fuzz_program_loader fuzz_pie_reader fuzz_stark_verifier fuzz_bigint fuzz_rlp fuzz_mpt
             fuzz_eip712 fuzz_user_request fuzz_grow_order fuzz_multipart fuzz_bootloader_input
             fuzz_selector fuzz_bounded_json fuzz_http_request fuzz_task_results)
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
for target in "${targets[@]}"; do
    corpus="$work/${target#fuzz_}"
    mkdir -p "$corpus"
    cp "$here/corpus/${target#fuzz_}/"* "$corpus/" 2>/dev/null || true
    echo "== $target for ${seconds}s"
    "$build/tests/fuzz/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 "$corpus" 2>&1 |
        grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" || true
    if ls crash-* timeout-* oom-* >/dev/null 2>&1; then
        echo "$target: crash found"; exit 1
    fi
done
rm -rf "$work"
