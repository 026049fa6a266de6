#!/usr/bin/env bash
# Installs the Python that the capture-client test (apps/server/test/capture-client.test.ts) runs the real capture
# client's class with: Debian's Python 3, its venv module and requests (python3-requests), piece by piece, and a
# `holidays` release that has holidays.FR, from the Python package index with pip, in a virtual environment at
# .cache/capture-python that sees Debian's packages (Debian 12's python3-holidays 0.10 has no holidays.FR, which
# the class calls to compute a process limit date). One line per piece. `--check` prints the pieces, installs
# nothing, and exits 1 when one is missing.
#
# Idempotent, and never fails the caller: when it cannot install (no root, no apt, no network) it prints a
# warning and exits 0; the capture-client test then says what is missing and is skipped (with CI=true, fails).
set -u
name=install-capture-python
check_only=0
[ "${1:-}" = "--check" ] && check_only=1

root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${MAILROOM_CAPTURE_VENV:-$root/.cache/capture-python}"
# Debian's interpreter, not whatever python3 comes first on PATH: the virtual environment takes requests from it.
base_python="${MAILROOM_CAPTURE_BASE_PYTHON:-/usr/bin/python3}"
holidays_release=0.105
consequence="the capture-client test will be skipped"

# shellcheck source=scripts/install-pieces.sh
. "$(dirname "$0")/install-pieces.sh"
install_pieces "$name" "$check_only" "$consequence" \
  "Python 3 (runs the capture client)|python3" \
  "Python virtual environments|python3-venv" \
  "requests (the client's HTTP library)|python3-requests"
status=$?

where=${venv#"$root"/}
# The call the client makes (calcul_process_limit_date), not just the import: old releases import fine.
holidays_version() {
  [ -x "$venv/bin/python" ] &&
    "$venv/bin/python" -c "import holidays; holidays.FR(prov='Métropole', years=2026); print(holidays.__version__)" 2>/dev/null
}
if version=$(holidays_version); then
  echo "$name: ok      holidays with holidays.FR: $version in $where"
  [ "$check_only" = 1 ] && exit "$status"
  exit 0
fi
echo "$name: missing holidays with holidays.FR: holidays==$holidays_release in $where"
if [ "$check_only" = 1 ]; then
  echo "$name: would install holidays==$holidays_release in $where"
  exit 1
fi
if [ ! -x "$venv/bin/python" ] && ! "$base_python" -m venv --system-site-packages "$venv"; then
  echo "$name: WARNING: $base_python could not create the virtual environment $where; $consequence" >&2
  exit 0
fi
echo "$name: installing holidays==$holidays_release in $where"
# One retry, not pip's five: where the index is out of reach (a closed network whose pip configuration names a local
# index or wheels folder), the retries' back-off alone took 24 s of every fresh clone's `npm test`.
if ! "$venv/bin/pip" install --quiet --retries 1 --disable-pip-version-check "holidays==$holidays_release"; then
  echo "$name: WARNING: pip could not install holidays==$holidays_release; $consequence" >&2
  exit 0
fi
holidays_version >/dev/null ||
  echo "$name: WARNING: holidays.FR still missing after the install; $consequence" >&2
exit 0
