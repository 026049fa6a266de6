#!/usr/bin/env bash
# A one-node Ceph cluster with its S3 gateway, for the object-storage tests and benchmarks:
#   bash scripts/ceph-test-cluster.sh start   starts it (installing Debian's ceph-mon, ceph-osd and radosgw
#                                             where missing) and prints its settings as shell assignments
#   bash scripts/ceph-test-cluster.sh env     prints the settings of a running cluster (exit 3 if none)
#   bash scripts/ceph-test-cluster.sh stop    stops the daemons and removes the cluster's folder
#   bash scripts/ceph-test-cluster.sh acquire PID | release PID
#                                             what a test run uses (scripts/bootstrap.mjs): `acquire` reuses the
#                                             running cluster or starts one, and notes the run's PID as a holder;
#                                             `release` drops it, and stops a cluster that a run started once no
#                                             live holder is left, so two runs side by side share one cluster and
#                                             neither stops it under the other; a cluster started with `start`
#                                             is left running. Both wait for each other (a lock beside the folder)
#   bash scripts/ceph-test-cluster.sh gateway-stop | gateway-start  [PORT]
#                                             stops or restarts the gateway alone (tests of an unreachable store);
#                                             with a PORT other than the cluster's, a gateway of that test's own
#                                             on the same cluster, so stopping it disturbs no test running beside
#   bash scripts/ceph-test-cluster.sh user NAME  creates the gateway user NAME (once) and prints its keys as
#                                             AWS_ACCESS_KEY_ID=… AWS_SECRET_ACCESS_KEY=… (a second account: copies
#                                             between stores with different keys)
# One monitor, one OSD on the in-memory `memstore` object store (nothing written to disk but logs; its size is
# MAILROOM_CEPH_MEMSTORE_BYTES, default 1 GiB: a full OSD blocks writes, as a full Ceph cluster does), the RADOS
# gateway on a loopback port. Authentication inside the cluster is off (`auth ... required = none`), so the
# gateway must speak crc mode to the monitor; S3 clients use the fixed test keys below with signature v4.
# `start` is idempotent: a cluster whose gateway answers is reused. Diagnostics go to stderr; stdout carries
# only the settings, so `eval "$(bash scripts/ceph-test-cluster.sh start)"` works.
set -euo pipefail
log() { echo "ceph-test-cluster: $*" >&2; }

dir=${MAILROOM_CEPH_DIR:-${TMPDIR:-/tmp}/mailroom-ceph}
mon_port=${MAILROOM_CEPH_MON_PORT:-43300}
rgw_port=${MAILROOM_CEPH_RGW_PORT:-47480}
access_key=mailroom-test-access
secret_key=mailroom-test-secret-0123456789abcdef
conf=$dir/ceph.conf

print_env() {
  cat <<EOF
MAILROOM_S3_ENDPOINT=http://127.0.0.1:$rgw_port
MAILROOM_S3_REGION=us-east-1
MAILROOM_S3_FORCE_PATH_STYLE=true
AWS_ACCESS_KEY_ID=$access_key
AWS_SECRET_ACCESS_KEY=$secret_key
EOF
}

gateway_answers() {
  node -e "
const s = require('net').connect($rgw_port, '127.0.0.1'); s.setTimeout(1000);
s.on('connect', () => { s.end(); process.exit(0) }); s.on('error', () => process.exit(1)); s.on('timeout', () => process.exit(1));"
}

# A process that is there and not a zombie: where nothing reaps orphans (a container's init may not), a daemon
# killed stays a zombie, which `kill -0` still finds.
running() { kill -0 "$1" 2>/dev/null && ! grep -qs ') Z ' "/proc/$1/stat"; }

stop_daemons() {
  for pidfile in "$dir"/run/*.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
  done
  # Give them a moment, then make sure (only the pids this cluster recorded).
  for _ in $(seq 1 20); do
    alive=0
    for pidfile in "$dir"/run/*.pid; do [ -f "$pidfile" ] && running "$(cat "$pidfile")" && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.25
  done
  for pidfile in "$dir"/run/*.pid; do [ -f "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null || true; done
}

install_packages() {
  local missing=()
  command -v ceph-mon >/dev/null 2>&1 || missing+=(ceph-mon)
  command -v ceph-osd >/dev/null 2>&1 || missing+=(ceph-osd)
  command -v radosgw >/dev/null 2>&1 || missing+=(radosgw)
  [ ${#missing[@]} = 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
    log "missing ${missing[*]} and cannot install them here (needs apt-get as root)"
    return 1
  fi
  log "installing Debian's ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >&2 2>&1 ||
    { apt-get -o DPkg::Lock::Timeout=600 update -qq >&2 2>&1 && apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >&2 2>&1; }
}

wait_for() {
  local what=$1 tries=$2
  shift 2
  for _ in $(seq 1 "$tries"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.25; done
  log "$what did not come up; logs in $dir/log"
  return 1
}

# The cluster's gateway, or (with a port of its own) another gateway process on the same cluster: same
# buckets and users, its own address, pid file and logs.
gateway_name() {
  if [ "${1:-$rgw_port}" = "$rgw_port" ]; then echo client.rgw.mailroom; else echo "client.rgw.mailroom-$1"; fi
}

start_gateway() {
  local port=${1:-$rgw_port}
  local name
  name=$(gateway_name "$port")
  if [ "$port" = "$rgw_port" ]; then
    radosgw -c "$conf" -n "$name" --ms-mon-client-mode=crc --ms-client-mode=crc >&2
  else
    mkdir -p "$dir/rgw-$port"
    radosgw -c "$conf" -n "$name" --ms-mon-client-mode=crc --ms-client-mode=crc \
      --rgw-frontends="beast endpoint=127.0.0.1:$port" --rgw-dns-name=127.0.0.1 --rgw-data="$dir/rgw-$port" >&2
  fi
  rgw_port=$port wait_for "the gateway on port $port" 240 gateway_answers
}

stop_gateway() {
  local pidfile
  pidfile=$dir/run/$(gateway_name "${1:-}").pid
  [ -f "$pidfile" ] || return 0
  local pid
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$pidfile"
}

start() {
  if gateway_answers; then print_env; return 0; fi
  install_packages || return 2
  stop_daemons
  rm -rf "$dir"
  mkdir -p "$dir"/run "$dir"/log "$dir"/mon/ceph-a "$dir"/osd/ceph-0
  local fsid
  fsid=$(cat /proc/sys/kernel/random/uuid)
  cat >"$conf" <<EOF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
public network = 127.0.0.0/8
auth cluster required = none
auth service required = none
auth client required = none
auth supported = none
ms mon client mode = crc
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
run dir = $dir/run
pid file = $dir/run/\$name.pid
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
keyring = $dir/keyring
mon data = $dir/mon/\$cluster-\$id
osd data = $dir/osd/\$cluster-\$id
osd objectstore = memstore
memstore device bytes = ${MAILROOM_CEPH_MEMSTORE_BYTES:-1073741824}
osd max object name len = 460
osd max object namespace len = 64
[client.rgw.mailroom]
rgw frontends = beast endpoint=127.0.0.1:$rgw_port
rgw dns name = 127.0.0.1
rgw data = $dir/rgw
EOF
  : >"$dir/keyring"
  monmaptool --create --addv a "[v2:127.0.0.1:$mon_port]" --fsid "$fsid" "$dir/monmap" >/dev/null
  ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" >&2
  ceph-mon -c "$conf" -i a >&2
  wait_for "the monitor" 40 ceph -c "$conf" --connect-timeout 2 mon stat
  local osd_uuid
  osd_uuid=$(cat /proc/sys/kernel/random/uuid)
  ceph -c "$conf" osd new "$osd_uuid" >/dev/null
  ceph-osd -c "$conf" -i 0 --mkfs --osd-uuid "$osd_uuid" >&2 2>&1
  ceph-osd -c "$conf" -i 0 >&2
  wait_for "the OSD" 80 bash -c "ceph -c '$conf' osd stat -f json | grep -q '\"num_up_osds\":1'"
  mkdir -p "$dir/rgw"
  start_gateway
  radosgw-admin -c "$conf" user create --uid=mailroom --display-name=Mailroom --access-key="$access_key" --secret-key="$secret_key" >/dev/null
  log "gateway on http://127.0.0.1:$rgw_port (cluster in $dir)"
  print_env
}

# A second account of the gateway, with keys of its own derived from its name (so running this again
# prints the same keys).
user() {
  local name=$1
  [[ $name =~ ^[a-z][a-z0-9-]{0,30}$ ]] || { log "user names are lower-case letters, digits and hyphens"; exit 2; }
  [ -f "$conf" ] || { log "no cluster (run: $0 start)"; exit 3; }
  local key=$name-access secret=$name-secret-0123456789abcdef
  if ! radosgw-admin -c "$conf" user info --uid="$name" >/dev/null 2>&1; then
    radosgw-admin -c "$conf" user create --uid="$name" --display-name="$name" --access-key="$key" --secret-key="$secret" >/dev/null
  fi
  printf 'AWS_ACCESS_KEY_ID=%s\nAWS_SECRET_ACCESS_KEY=%s\n' "$key" "$secret"
}

# Runs side by side: one lock for acquiring and releasing (beside the folder, which `stop` removes), holders as
# files named by their PID, and a mark on a cluster a run started (the last run to release it stops it).
lock=$dir.lock
holders=$dir/holders

live_holders() {
  local holder count=0
  for holder in "$holders"/*; do
    [ -e "$holder" ] || continue
    if running "${holder##*/}"; then count=$((count + 1)); else rm -f "$holder"; fi
  done
  echo "$count"
}

acquire() {
  local pid=$1
  [[ $pid =~ ^[0-9]+$ ]] || { log "acquire takes the PID of the run that holds the cluster"; exit 2; }
  exec 9>"$lock"
  flock 9
  local started_here=0
  if ! gateway_answers; then
    # The daemons must not inherit the lock's descriptor: they would hold the lock for as long as they run.
    start >/dev/null 9>&-
    started_here=1
  fi
  mkdir -p "$holders"
  [ "$started_here" = 1 ] && : >"$dir/started-by-a-run"
  : >"$holders/$pid"
  print_env
}

release() {
  local pid=$1
  [[ $pid =~ ^[0-9]+$ ]] || { log "release takes the PID given to acquire"; exit 2; }
  exec 9>"$lock"
  flock 9
  rm -f "$holders/$pid"
  if [ -f "$dir/started-by-a-run" ] && [ "$(live_holders)" = 0 ]; then
    stop_daemons
    rm -rf "$dir"
  fi
}

case "${1:-}" in
  start) start ;;
  acquire) acquire "${2:-}" ;;
  release) release "${2:-}" ;;
  user) user "${2:-}" ;;
  env)
    if gateway_answers; then print_env; else log "no cluster running (run: $0 start)"; exit 3; fi
    ;;
  gateway-stop) stop_gateway "${2:-}" ;;
  gateway-start)
    [ -f "$conf" ] || { log "no cluster (run: $0 start)"; exit 3; }
    rgw_port=${2:-$rgw_port} gateway_answers || start_gateway "${2:-}"
    ;;
  stop)
    stop_daemons
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop|env|acquire PID|release PID|gateway-stop [PORT]|gateway-start [PORT]|user NAME" >&2
    exit 2
    ;;
esac
