#!/usr/bin/env bash
# Installs what the container image, its test and the Kubernetes manifests' `podman kube play` need on a
# Debian machine, piece by piece (one line each; a partial install is completed with apt-get): podman, the runc
# runtime (the flags the project uses: `--runtime runc --cgroup-manager=cgroupfs`, see docs/operator-guide.md),
# mmdebstrap, which builds the Debian base image from Debian's packages when no image registry is reachable, and
# catatonit, from which podman builds the pause image of a pod (`podman kube play`) when it cannot pull one.
# `--check` prints the pieces, installs nothing, and exits 1 when one is missing.
#
# Idempotent, and never fails the caller: when it cannot install (no root, no apt, no network) it prints a
# warning and exits 0; the image test then skips itself with a message naming this script.
set -u
name=install-podman
check_only=0
[ "${1:-}" = "--check" ] && check_only=1

# "what it is for|the Debian packages that provide it (the first is installed when none is)"
pieces=(
  "podman (builds and runs the image, kube play)|podman"
  "runc (the OCI runtime the project's flags name)|runc"
  "mmdebstrap (the Debian base image, without a registry)|mmdebstrap"
  "catatonit (the pause process of a pod's infra container: kube play)|catatonit"
)

# shellcheck source=scripts/install-pieces.sh
. "$(dirname "$0")/install-pieces.sh"
install_pieces "$name" "$check_only" "the container image test will be skipped" "${pieces[@]}"
status=$?
[ "$check_only" = 1 ] && exit "$status"
command -v podman >/dev/null 2>&1 && echo "$name: $(podman --version 2>/dev/null | head -n 1)"
exit 0
