# Sourced by the shell tests. start_proofdesk_serve BIN DATA_DIR [serve options...] starts
# `proofdesk serve` in the background on a free loopback port (any fixed or random port may be
# taken), its output in $WORK/serve.out and serve.err, from $WORK; sets SERVER_PID, and P to its
# URL once it answers. Calls the caller's `fail` when the server stops or has not answered within
# a minute.
start_proofdesk_serve() {
    local bin data=$2
    bin=$(realpath "$1") # it runs from $WORK
    shift 2
    (cd "$WORK" && exec "$bin" serve --data-dir "$data" --listen 127.0.0.1:0 "$@" \
        >"$WORK/serve.out" 2>"$WORK/serve.err") &
    SERVER_PID=$!
    P=""
    for _ in $(seq 600); do
        P=$(sed -nE 's/^Proofdesk .* serving on (http:[^ ]*).*/\1/p' "$WORK/serve.out" 2>/dev/null)
        [ -n "$P" ] && curl -sf "$P/is-alive" >/dev/null && return 0
        kill -0 "$SERVER_PID" 2>/dev/null || fail "the server stopped"
        sleep 0.1
    done
    fail "the server did not answer within a minute"
}
