#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (CORS from another origin, the web console), and the fonts
# the screenshots are drawn with, piece by piece (one line each; a partial install is completed). Nothing
# downloads a browser build of its own: playwright-core drives this one through MAILROOM_CHROMIUM
# (default /usr/bin/chromium). `--check` prints the pieces, installs nothing, and exits 1 when one is missing.
#
# Idempotent, and never fails the caller: when it cannot install (no root, no apt, no network) it prints a
# warning and exits 0; the browser tests are then skipped with a message naming this script.
set -u
name=install-chromium
check_only=0
[ "${1:-}" = "--check" ] && check_only=1

browser="${MAILROOM_CHROMIUM:-/usr/bin/chromium}"
pieces=("DejaVu fonts (page text in screenshots)|fonts-dejavu-core")
# A browser of one's own (MAILROOM_CHROMIUM) is taken as it is; Debian's is checked like the fonts.
if [ -n "${MAILROOM_CHROMIUM:-}" ] && [ -x "$browser" ]; then
  echo "$name: ok      browser: $browser"
else
  pieces=("Chromium (browser tests)|chromium" "${pieces[@]}")
fi

# shellcheck source=scripts/install-pieces.sh
. "$(dirname "$0")/install-pieces.sh"
install_pieces "$name" "$check_only" "the browser tests will be skipped" "${pieces[@]}"
status=$?
[ "$check_only" = 1 ] && exit "$status"
if [ -x "$browser" ]; then echo "$name: $("$browser" --version 2>/dev/null | head -n 1)"; else echo "$name: WARNING: no browser at $browser" >&2; fi
exit 0
