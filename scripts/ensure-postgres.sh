#!/usr/bin/env bash
# Prints the URL of a PostgreSQL server the tests can create databases on, starting one if needed:
# 1. $TEST_DATABASE_URL or $DATABASE_URL if set;  2. the server on 127.0.0.1:5432 (trust auth, database
# test) if it answers;  3. a throw-away cluster in a temp dir owned by the postgres user, installing
# Debian's postgresql package first when its binaries are missing.  Diagnostics go to stderr.
set -euo pipefail
log() { echo "ensure-postgres: $*" >&2; }

if [ -n "${TEST_DATABASE_URL:-}" ]; then echo "$TEST_DATABASE_URL"; exit 0; fi
if [ -n "${DATABASE_URL:-}" ]; then echo "$DATABASE_URL"; exit 0; fi

answers() { node -e "
const net = require('net'); const s = net.connect($2, '$1'); s.setTimeout(1500);
s.on('connect', () => { s.end(); process.exit(0) }); s.on('error', () => process.exit(1)); s.on('timeout', () => process.exit(1));" ; }

default_url="postgres://postgres@127.0.0.1:5432/test"
if answers 127.0.0.1 5432; then
  if command -v psql >/dev/null 2>&1 && ! psql "$default_url" -Atc 'select 1' >/dev/null 2>&1; then
    log "127.0.0.1:5432 answers but refuses postgres@test; trying a throw-away cluster"
  else
    echo "$default_url"; exit 0
  fi
fi

# The machine's own cluster may just be stopped.
if command -v pg_ctlcluster >/dev/null 2>&1 && ls /etc/postgresql/*/main >/dev/null 2>&1; then
  version=$(ls /etc/postgresql | sort -V | tail -n1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 2>&1 || true
  for _ in $(seq 1 20); do answers 127.0.0.1 5432 && { echo "$default_url"; exit 0; }; sleep 0.5; done
fi

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
if [ -z "$bindir" ]; then
  log "installing Debian's postgresql package"
  export DEBIAN_FRONTEND=noninteractive
  (apt-get -o DPkg::Lock::Timeout=600 update -qq && apt-get -o DPkg::Lock::Timeout=600 install -y -qq postgresql) >&2
  bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
fi

port=55432
dir=$(mktemp -d /tmp/mailroom-pg.XXXXXX)
chown postgres:postgres "$dir" 2>/dev/null || true
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
as_pg "'$bindir/initdb' -D '$dir/data' -U postgres --auth=trust -E UTF8 >/dev/null"
as_pg "'$bindir/pg_ctl' -D '$dir/data' -o '-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off' -l '$dir/log' -w start >/dev/null"
as_pg "'$bindir/createdb' -h 127.0.0.1 -p $port -U postgres test"
log "started a throw-away cluster in $dir on port $port"
echo "postgres://postgres@127.0.0.1:$port/test"
