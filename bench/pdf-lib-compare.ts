/**
 * pdf-lib (on hold upstream) against its maintained fork @cantoo/pdf-lib, side by side in one process so a
 * busy machine slows both alike: the operations Mailroom's watermarking and conversions do, each timed
 * alternately on both libraries, median of BENCH_RUNS (default 15) runs, with the fork's time as a ratio
 * of pdf-lib's. Outputs are checked to open again in both libraries.
 *
 *   pnpm --filter @mailroom/bench bench:pdf-lib
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import cantooFontkit from '@cantoo/fontkit'
import * as cantoo from '@cantoo/pdf-lib'
import pdfLibFontkit from '@pdf-lib/fontkit'
import * as original from 'pdf-lib'
import { encodePng } from '../packages/documents/src/conversion/pdf-converter.js'
import { makeBenchPdf, median } from './bench-kit.js'

type Library = typeof original & { fontkit: unknown }
// Each with its own fontkit: @cantoo/pdf-lib 2.11.1 fails to subset a font with @pdf-lib/fontkit
// (TypeError in the subset encoder), although its README says that pairing still works.
const LIBRARIES: readonly [string, Library][] = [
  ['pdf-lib 1.17.1 + @pdf-lib/fontkit 1.1.1', { ...original, fontkit: pdfLibFontkit }],
  [
    '@cantoo/pdf-lib 2.11.1 + @cantoo/fontkit 2.0.12',
    { ...(cantoo as unknown as typeof original), fontkit: cantooFontkit },
  ],
]
const runs = Number(process.env.BENCH_RUNS ?? 15)
const font = new Uint8Array(
  await readFile(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
)
const letter = makeBenchPdf(10, 1024 * 1024)
const photo = (() => {
  const side = 800
  const rgba = new Uint8Array(side * side * 4)
  for (let i = 0; i < rgba.length; i += 4) rgba.set([(i >> 4) & 255, (i >> 10) & 255, (i >> 14) & 255, 255], i)
  return encodePng(side, side, rgba)
})()
const TEXT = 'Copie conforme de MAARCH/2026A/1 le 24/11/2026 19:30 — Ελληνικά, кириллица, €'

const OPERATIONS: Record<string, (lib: Library) => Promise<Uint8Array>> = {
  async 'watermark 1 MB 10-page PDF (Helvetica)'(lib) {
    const doc = await lib.PDFDocument.load(letter)
    const helvetica = await doc.embedFont(lib.StandardFonts.Helvetica)
    for (const page of doc.getPages())
      page.drawText('Copie conforme de MAARCH/2026A/1', {
        x: 30,
        y: 35,
        size: 10,
        font: helvetica,
        color: lib.rgb(0.08, 0.75, 0.12),
        opacity: 0.5,
        rotate: lib.degrees(0),
      })
    return doc.save()
  },
  async 'watermark 1 MB 10-page PDF (DejaVu subset)'(lib) {
    const doc = await lib.PDFDocument.load(letter)
    doc.registerFontkit(lib.fontkit as never)
    const dejavu = await doc.embedFont(font, { subset: true })
    for (const page of doc.getPages()) page.drawText(TEXT, { x: 30, y: 35, size: 10, font: dejavu, opacity: 0.5 })
    return doc.save()
  },
  async 'text to PDF (3 pages, DejaVu subset)'(lib) {
    const doc = await lib.PDFDocument.create()
    doc.registerFontkit(lib.fontkit as never)
    const dejavu = await doc.embedFont(font, { subset: true })
    for (let p = 0; p < 3; p++) {
      const page = doc.addPage([595.28, 841.89])
      for (let line = 0; line < 60; line++)
        page.drawText(`${p}.${line} ${TEXT}`, { x: 40, y: 800 - line * 12, size: 10, font: dejavu })
    }
    return doc.save()
  },
  async 'PNG 800×800 to PDF'(lib) {
    const doc = await lib.PDFDocument.create()
    const image = await doc.embedPng(photo)
    doc.addPage([595.28, 841.89]).drawImage(image, { x: 0, y: 0, width: 595.28, height: 595.28 })
    return doc.save()
  },
}

console.log(`pdf-lib against @cantoo/pdf-lib, median of ${runs} runs each (ms), same process`)
console.log(
  '| Operation | pdf-lib | @cantoo/pdf-lib | ratio | output bytes (pdf-lib / cantoo) |\n|---|---|---|---|---|',
)
for (const [name, operation] of Object.entries(OPERATIONS)) {
  const times = LIBRARIES.map(() => [] as number[])
  const sizes = LIBRARIES.map(() => 0)
  for (let run = 0; run < runs + 1; run++) {
    for (const [index, [, lib]] of LIBRARIES.entries()) {
      const t0 = performance.now()
      const out = await operation(lib)
      // The first run of each warms the JIT and the font parsers up: not counted.
      if (run > 0) times[index]!.push(performance.now() - t0)
      sizes[index] = out.length
      if (run === 0) for (const [, reader] of LIBRARIES) await reader.PDFDocument.load(out)
    }
  }
  const [a, b] = times.map(median) as [number, number]
  console.log(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)} | ${sizes[0]} / ${sizes[1]} |`)
}
