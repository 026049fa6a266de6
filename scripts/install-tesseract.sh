#!/usr/bin/env bash
# Installs what full-text extraction needs on a Debian machine, piece by piece (one line each; a partial
# install is completed): Tesseract OCR with its French and English data (scanned letters and images), and
# poppler-utils (pdftotext reads a PDF's text layer, pdftoppm renders a scanned PDF's pages for Tesseract).
# `--check` prints the pieces, installs nothing, and exits 1 when one is missing.
#
# Idempotent, and never fails the caller: when it cannot install (no root, no apt, no network) it prints a
# warning and exits 0; the OCR tests are then skipped with a message naming this script.
set -u
name=install-tesseract
check_only=0
[ "${1:-}" = "--check" ] && check_only=1

# "what it is for|the Debian packages that provide it (the first is installed when none is)"
pieces=(
  "Tesseract OCR (scans and images)|tesseract-ocr"
  "Tesseract French data|tesseract-ocr-fra"
  "Tesseract English data|tesseract-ocr-eng"
  "poppler (pdftotext, pdftoppm)|poppler-utils"
)

# shellcheck source=scripts/install-pieces.sh
. "$(dirname "$0")/install-pieces.sh"
install_pieces "$name" "$check_only" "the OCR tests will be skipped" "${pieces[@]}"
status=$?
[ "$check_only" = 1 ] && exit "$status"
command -v tesseract >/dev/null 2>&1 && echo "$name: $(tesseract --version 2>&1 | head -n 1)"
exit 0
