#!/usr/bin/env bash
# Installs Debian's OpenLDAP server and tools for the directory sign-in tests, piece by piece (one line each;
# a partial install is completed). The tests start their own slapd on loopback, with its own configuration,
# database and TLS certificate in a temporary folder; the Debian service this installs is not used.
# `--check` prints the pieces, installs nothing, and exits 1 when one is missing.
#
# Idempotent, and never fails the caller: when it cannot install (no root, no apt, no network) it prints a
# warning and exits 0; the directory tests are then skipped with a message naming this script.
set -u
name=install-slapd
check_only=0
[ "${1:-}" = "--check" ] && check_only=1

pieces=(
  "OpenLDAP server (directory tests)|slapd"
  "OpenLDAP tools (ldapadd, slappasswd)|ldap-utils"
  "OpenSSL (the tests' TLS certificate)|openssl"
)
# shellcheck source=scripts/install-pieces.sh
. "$(dirname "$0")/install-pieces.sh"
# The service Debian's package would start is not wanted: no debconf questions, no start.
export DEBIAN_FRONTEND=noninteractive
install_pieces "$name" "$check_only" "the directory tests will be skipped" "${pieces[@]}"
status=$?
[ "$check_only" = 1 ] && exit "$status"
if [ -x /usr/sbin/slapd ]; then echo "$name: $(/usr/sbin/slapd -VV 2>&1 | head -n 1 | sed 's/^@(#) \$//')"; else echo "$name: WARNING: no slapd at /usr/sbin/slapd" >&2; fi
exit 0
