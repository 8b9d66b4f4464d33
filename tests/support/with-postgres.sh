#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster of its own: initdb in a temporary directory,
# a server listening only on a Unix socket there, and PROOFDESK_TEST_STORE naming it
# (postgresql://proofdesk@localhost/proofdesk?host=DIR). The cluster is stopped and deleted when
# the command ends, whatever its outcome. PostgreSQL refuses to run as root, so as root the
# server runs as the `postgres` user (created by Debian's postgresql package).
# Exits 77 (a skip, for CTest) when no PostgreSQL server is installed.
set -euo pipefail

bindir=""
for candidate in /usr/lib/postgresql/*/bin; do
    if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then
        bindir="$candidate"
    fi
done
if [ -z "$bindir" ]; then
    echo "with-postgres: no PostgreSQL server is installed (Debian: apt-get install postgresql-15); skipping" >&2
    exit 77
fi

dir="$(mktemp -d /tmp/proofdesk-pg.XXXXXX)"
chmod 755 "$dir"
as_server_user() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}
if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$dir"
fi

stop_cluster() {
    as_server_user "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop_cluster EXIT

as_server_user "$bindir/initdb" -D "$dir/data" -A trust -U proofdesk -E UTF8 --no-sync \
    >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
# fsync off: a throwaway cluster needs no durability, and tests create many databases.
as_server_user "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off -c max_connections=400" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
as_server_user "$bindir/createdb" -h "$dir" -U proofdesk proofdesk

export PROOFDESK_TEST_STORE="postgresql://proofdesk@localhost/proofdesk?host=$dir"
# Restarts the server (fast: open connections are cut), for tests of what survives that.
cat >"$dir/restart.sh" <<RESTART
#!/usr/bin/env bash
set -e
if [ "\$(id -u)" -eq 0 ]; then as=(runuser -u postgres --); else as=(); fi
"\${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart >/dev/null
RESTART
chmod 755 "$dir/restart.sh"
export PROOFDESK_TEST_PG_RESTART="$dir/restart.sh"
status=0
"$@" || status=$?
if [ "$status" -ne 0 ] && [ -n "${PROOFDESK_PG_LOG_ON_FAILURE:-1}" ]; then
    echo "with-postgres: the server's log follows" >&2
    tail -n 50 "$dir/server.log" >&2 || true
fi
exit "$status"
