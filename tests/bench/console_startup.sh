#!/usr/bin/env bash
# Startup of the console to a shown window (issue #5 target: under 1.5 s), five runs on a fresh
# data dir each, reporting every run and the median. The app measures from the top of its entry
# point to the first event-loop turn after show() (--startup-probe); `wall` adds process exit.
#   tests/bench/console_startup.sh build-rel/app/proofdesk
# Uses Xvfb when DISPLAY is set, else Qt's offscreen platform.
set -euo pipefail
binary=${1:?usage: console_startup.sh path/to/proofdesk}
if [ -z "${DISPLAY:-}" ]; then
    export QT_QPA_PLATFORM=offscreen
fi
results=()
for run in 1 2 3 4 5; do
    dir=$(mktemp -d)
    start=$(date +%s%N)
    line=$(XDG_CONFIG_HOME="$dir/config" "$binary" --startup-probe --data-dir "$dir/data" 2>/dev/null)
    end=$(date +%s%N)
    probe=$(echo "$line" | sed -n 's/startup: \([0-9]*\) ms.*/\1/p')
    echo "run $run: ${probe} ms to a shown window, wall $(((end - start) / 1000000)) ms"
    results+=("$probe")
    rm -rf "$dir"
done
median=$(printf '%s\n' "${results[@]}" | sort -n | sed -n 3p)
echo "median: ${median} ms"
