#!/usr/bin/env bash
# A private PostgreSQL cluster for the fleet tests, made with Debian's
# initdb and pg_ctl (the postgresql package): its own folder, a loopback
# port, a role `lamina` with a password (SCRAM over TCP, as a managed
# PostgreSQL has it) and a database `lamina`.
#
#   scripts/setup/postgres-cluster.sh start DIR PORT   # prints nothing; the password is in DIR/password
#   scripts/setup/postgres-cluster.sh stop DIR          # as a crash would (immediate)
#   scripts/setup/postgres-cluster.sh resume DIR PORT   # started again, data kept
#
# PostgreSQL refuses to run as root: as root, the cluster belongs to the
# `postgres` user and its commands run as that user.
set -euo pipefail
action="$1"; dir="$2"; port="${3:-0}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -x "$bin/initdb" ] || { echo "postgres-cluster: no PostgreSQL server (apt-get install postgresql)" >&2; exit 1; }
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$action" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    head -c 18 /dev/urandom | base64 | tr -d '/+=' > "$dir/password"
    chmod 600 "$dir/password"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    "$0" resume "$dir" "$port"
    as_owner "$bin/psql" -h "$dir" -p "$port" -U postgres -q -v ON_ERROR_STOP=1 \
      -c "CREATE ROLE lamina LOGIN PASSWORD '$(cat "$dir/password")'" -c "CREATE DATABASE lamina OWNER lamina" >/dev/null
    ;;
  resume)
    # fsync off: a test cluster's data need not survive the machine.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null \
      || { tail -20 "$dir/server.log" >&2; exit 1; }
    ;;
  stop)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    ;;
  *) echo "usage: $0 start DIR PORT | stop DIR | resume DIR PORT" >&2; exit 2 ;;
esac
