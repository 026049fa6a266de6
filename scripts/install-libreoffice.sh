#!/usr/bin/env bash
# Installs what document conversion needs on a Debian machine: LibreOffice headless (office formats → PDF),
# a Unicode TTF font (DejaVu), unoconv (drives a warm LibreOffice: ~0.3 s per file instead of ~1 s) and
# poppler-utils (pdftotext, used by the conversion tests to read PDFs back).
#
# Idempotent: does nothing when everything is already there. Never fails the caller: when it cannot install
# (no root, no apt, no network) it prints a warning and exits 0, so CI still runs every other test; the
# LibreOffice tests skip themselves when `soffice` is absent.
set -u

missing=()
command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
command -v unoconv >/dev/null 2>&1 || missing+=(unoconv)

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-libreoffice: soffice, unoconv, DejaVu fonts and pdftotext already present"
  exit 0
fi

warn() {
  echo "install-libreoffice: WARNING: $1; office conversion tests will be skipped" >&2
  exit 0
}

command -v apt-get >/dev/null 2>&1 || warn "apt-get not available, cannot install ${missing[*]}"

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else warn "not root and no sudo"; fi
fi

echo "install-libreoffice: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# One update per run only; a stale or absent package list is the usual reason an install fails.
$SUDO apt-get update -qq || warn "apt-get update failed"
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" || warn "apt-get install ${missing[*]} failed"

command -v soffice >/dev/null 2>&1 || warn "soffice still not on PATH after install"
echo "install-libreoffice: $(soffice --version 2>/dev/null | head -n 1)"
exit 0
