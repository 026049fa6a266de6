#!/bin/sh
# Creates the cluster at the first start (POSTGRES_USER, its password, POSTGRES_DB), then runs PostgreSQL in
# the foreground: SIGTERM (through tini) is its "smart" shutdown.
set -eu
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then POSTGRES_PASSWORD=$(cat "$POSTGRES_PASSWORD_FILE"); fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE is required}" > "$pwfile"
  initdb --pgdata="$PGDATA" --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  printf "listen_addresses = '*'\n" >> "$PGDATA/postgresql.conf"
  printf 'host all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  pg_ctl --pgdata="$PGDATA" --options="-c listen_addresses=''" --wait start >/dev/null
  if [ "$db" != postgres ]; then createdb --username="$user" "$db"; fi
  pg_ctl --pgdata="$PGDATA" --mode=fast --wait stop >/dev/null
  echo "postgres-entrypoint: created the cluster with database $db for $user"
fi
exec postgres -p "${PGPORT:-5432}"
