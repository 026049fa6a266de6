#!/usr/bin/env bash
# Builds the Mailroom image from this checkout, as the tests and docs/operator-guide.md#container-image do:
#   deploy/container/build-image.sh -t localhost/mailroom            the default image (LibreOffice, OCR)
#   deploy/container/build-image.sh -t localhost/mailroom:slim --target slim
# Any argument is passed to `podman build`. Builds the Debian base image first when it is missing
# (base-image.sh). Host networking: the build fetches Node, pnpm and the dependencies from the npm registry
# and Debian's packages from its mirror as this machine does.
# Behind a proxy that re-signs TLS, the build trusts what this machine trusts: its CA bundle
# (MAILROOM_BUILD_CA_BUNDLE, default /etc/ssl/certs/ca-certificates.crt when present; `none` for no bundle) is
# mounted read-only over the image's one during the build's steps only, never copied into the image.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
"$here/base-image.sh"
bundle=${MAILROOM_BUILD_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
mounts=()
if [ "$bundle" != none ] && [ -f "$bundle" ]; then
  mounts=(--volume "$bundle:/etc/ssl/certs/ca-certificates.crt:ro")
fi
# --jobs: the stages that do not wait on each other run together (the runtime's apt-get, LibreOffice and
# Tesseract beside the workspace's fetch and build): a build from nothing takes minutes less.
exec "$here/podman.sh" build --network=host --jobs=3 "${mounts[@]}" -f "$here/Containerfile" "$@" "$root"
