#!/usr/bin/env bash
# Builds the Debian base image the Containerfile starts from, from Debian's own packages, for machines that
# reach no image registry: `mmdebstrap --variant=minbase` writes a root filesystem, `podman import` makes it the
# image localhost/debian:bookworm (about 40 s). Does nothing when that image is already there (pass --force to
# rebuild it, e.g. to take Debian's security updates).
# Needs mmdebstrap and podman (scripts/install-podman.sh) and root, or a user namespace for mmdebstrap's
# unshare mode.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
image=${BASE_IMAGE:-localhost/debian:bookworm}
suite=${BASE_SUITE:-bookworm}
if [ "${1:-}" != "--force" ] && "$here/podman.sh" image exists "$image"; then
  echo "base-image: $image is there"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# ca-certificates: the build stage fetches Node from the npm registry over https.
mmdebstrap --quiet --variant=minbase --include=ca-certificates "$suite" "$work/rootfs.tar"
"$here/podman.sh" import --change 'CMD ["/bin/bash"]' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' "$work/rootfs.tar" "$image"
echo "base-image: built $image"
