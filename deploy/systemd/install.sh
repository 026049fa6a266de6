#!/usr/bin/env bash
# Installs Mailroom as a systemd service on a Debian server, from this checkout (run as root):
#   deploy/systemd/install.sh
# Puts the pinned Node (scripts/node-release.mjs) in /opt/mailroom/node, the server with its production
# dependencies alone (`pnpm deploy`) in /opt/mailroom/server and the web console in /opt/mailroom/console,
# creates the system user `mailroom`, writes /etc/mailroom/mailroom.env when there is none (it is never
# overwritten) and installs deploy/systemd/mailroom.service. Then: edit the environment file and
# `systemctl enable --now mailroom`. Run again to upgrade (the server is replaced; restart the service).
# Needs Node and pnpm to build (the repository's own: `pnpm install && pnpm build` first), and LibreOffice and
# Tesseract for conversion and OCR (scripts/install-libreoffice.sh, scripts/install-tesseract.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prefix=/opt/mailroom
[ "$(id -u)" -eq 0 ] || { echo "install.sh: run as root" >&2; exit 1; }

node_bin=$(node "$root/scripts/node-release.mjs" bin 26)
stage=$(mktemp -d "$prefix.new.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/node/bin"
cp "$node_bin/node" "$stage/node/bin/node"
(cd "$root" && pnpm --filter=@mailroom/server deploy --prod --legacy "$stage/server" >/dev/null)
cp -r "$root/apps/console/dist" "$stage/console"
chmod -R go-w "$stage"
rm -rf "$prefix.old"
[ -d "$prefix" ] && mv "$prefix" "$prefix.old"
mv "$stage" "$prefix"
chmod 0755 "$prefix"
rm -rf "$prefix.old"

getent group mailroom >/dev/null || groupadd --system mailroom
getent passwd mailroom >/dev/null ||
  useradd --system --gid mailroom --home-dir /var/lib/mailroom --no-create-home --shell /usr/sbin/nologin mailroom
install -d -m 0750 -o root -g mailroom /etc/mailroom
[ -e /etc/mailroom/mailroom.env ] || install -m 0640 -o root -g mailroom "$here/mailroom.env" /etc/mailroom/mailroom.env
install -m 0644 "$here/mailroom.service" /etc/systemd/system/mailroom.service
if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
echo "install.sh: installed in $prefix; edit /etc/mailroom/mailroom.env, then: systemctl enable --now mailroom"
