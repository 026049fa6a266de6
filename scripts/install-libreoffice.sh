#!/usr/bin/env bash
# Installs what document conversion needs on a Debian machine, piece by piece: LibreOffice headless with
# Writer (docx, odt, doc, html), Calc (xlsx, ods, xls) and Impress (pptx, odp) — a LibreOffice with Writer
# alone fails every spreadsheet with "source file could not be loaded" —, unoconv (drives a warm LibreOffice:
# ~0.3 s per file instead of ~1 s), the fonts the PDFs are drawn with (DejaVu for Greek and Cyrillic, and
# Liberation, metric-compatible with the Arial and Times New Roman the sample files name) and poppler-utils
# (pdftotext and pdftoppm, with which the tests read the PDFs back).
#
# Each piece is checked on its own (dpkg), one line each; a partial install is completed with apt-get.
# `--check` prints the pieces and what would be installed, installs nothing, and exits 1 when one is missing.
#
# Idempotent: does nothing when every piece is there. Never fails the caller otherwise: when it cannot install
# (no root, no apt, no network) it prints a warning and exits 0, so CI still runs every other test; the
# LibreOffice tests skip themselves when `soffice` is absent.
set -u
name=install-libreoffice
check_only=0
[ "${1:-}" = "--check" ] && check_only=1

# "what it is for|the Debian packages that provide it (the first is installed when none is)"
pieces=(
  "LibreOffice Writer (docx, odt, doc, html)|libreoffice-writer-nogui libreoffice-writer"
  "LibreOffice Calc (xlsx, ods, xls)|libreoffice-calc-nogui libreoffice-calc"
  "LibreOffice Impress (pptx, odp)|libreoffice-impress-nogui libreoffice-impress"
  "unoconv (warm LibreOffice listener)|unoconv"
  "DejaVu fonts (Latin, Greek, Cyrillic)|fonts-dejavu-core"
  "Liberation fonts (for Arial, Times New Roman)|fonts-liberation2 fonts-liberation"
  "poppler (pdftotext, pdftoppm)|poppler-utils"
)

# shellcheck source=scripts/install-pieces.sh
. "$(dirname "$0")/install-pieces.sh"
install_pieces "$name" "$check_only" "office conversion tests will be skipped" "${pieces[@]}"
status=$?
[ "$check_only" = 1 ] && exit "$status"
command -v soffice >/dev/null 2>&1 && echo "$name: $(soffice --version 2>/dev/null | head -n 1)"
exit 0
