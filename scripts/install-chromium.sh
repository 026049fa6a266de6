#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (CORS from another origin, the web console). Nothing
# downloads a browser build of its own: playwright-core drives this one through MAILROOM_CHROMIUM
# (default /usr/bin/chromium).
#
# Idempotent, and never fails the caller: when it cannot install (no root, no apt, no network) it prints a
# warning and exits 0; the browser tests are then skipped with a message naming this script.
set -u

browser="${MAILROOM_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$browser" ]; then
  echo "install-chromium: $("$browser" --version 2>/dev/null | head -n 1)"
  exit 0
fi

warn() {
  echo "install-chromium: WARNING: $1" >&2
  exit 0
}

command -v apt-get >/dev/null 2>&1 || warn "apt-get not available, cannot install chromium"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else warn "not root and no sudo"; fi
fi

echo "install-chromium: installing Debian's chromium"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || warn "apt-get update failed"
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core || warn "apt-get install chromium failed"
[ -x "$browser" ] || warn "$browser still missing after install"
echo "install-chromium: $("$browser" --version 2>/dev/null | head -n 1)"
exit 0
