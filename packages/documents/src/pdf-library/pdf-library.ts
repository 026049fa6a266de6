import type { PDFDocument } from '@cantoo/pdf-lib'

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0]

/** What the PDF work needs of pdf-lib and fontkit. */
export interface PdfLibrary {
  readonly pdfLib: typeof import('@cantoo/pdf-lib')
  readonly fontkit: Fontkit
  readonly winAnsi: typeof import('@cantoo/pdf-lib/standard-fonts')['Encodings']['WinAnsi']
}

let loading: Promise<PdfLibrary> | undefined

/**
 * pdf-lib and fontkit, loaded on first use and kept. Importing them costs about half a second of CPU (some
 * 400 modules), which every `mailroom` command and every server start paid at startup, though most commands
 * never make or read a PDF.
 */
export function pdfLibrary(): Promise<PdfLibrary> {
  loading ??= Promise.all([
    import('@cantoo/pdf-lib'),
    import('@cantoo/fontkit'),
    import('@cantoo/pdf-lib/standard-fonts'),
  ]).then(([pdfLib, fontkit, standardFonts]) => ({
    pdfLib,
    fontkit: fontkit.default as Fontkit,
    winAnsi: standardFonts.Encodings.WinAnsi,
  }))
  loading.catch(() => {
    loading = undefined
  })
  return loading
}
