import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

/** Name of the bundled Unicode font (DejaVu Sans, Bitstream Vera licence, from the `dejavu-fonts-ttf` package). */
export const UNICODE_FONT_NAME = 'DejaVuSans'

const require = createRequire(import.meta.url)
let cached: Promise<Uint8Array> | undefined

/**
 * The bytes of DejaVu Sans, read once. It covers Latin, Greek, Cyrillic and many symbols: what the PDF
 * standard fonts (WinAnsi only) cannot write. A fresh `pnpm install` brings it; no system font is needed.
 */
export function loadUnicodeFont(): Promise<Uint8Array> {
  cached ??= readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')).then((b) => new Uint8Array(b))
  cached.catch(() => {
    cached = undefined
  })
  return cached
}
