import fc from 'fast-check'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { hasPdftotext, pdfPagePng, pdfText, readSample } from '../../../testing/src/fixtures/files/index.js'
import {
  docx,
  docxWithPictures,
  entryOf,
  odfFrame,
  odtWithPictures,
  PLACEHOLDER_IMAGE,
  partOf,
  picture,
  run,
  wordParagraphs,
  xlsx,
} from '../../../testing/src/fixtures/office/test-office-files.js'
import { readCode } from '../../../testing/src/fixtures/office/test-read-code.js'
import { findSoffice, LibreOfficeConverter } from '../conversion/libreoffice-converter.js'
import { sniffMimeType } from '../sniffing/sniff-mime-type.js'
import { chronoQrCodeText, renderChronoPictures } from './chrono-images.js'
import { taggedPictureKinds } from './chrono-pictures.js'
import { prepareChronoMerge } from './merge-chrono-document.js'
import { CHRONO_PLACEHOLDER as P } from './replace-chrono-placeholder.js'

const CHRONO = 'MAARCH/2026A/42'
const QR_TAG = '[attachments.chronoQrCode;ope=changepic;tagpos=inside;adjust;unique]'
const BAR_TAG = '[attachments.chronoBarCode;ope=changepic;tagpos=inside;adjust;unique]'
const QR_TEXT = chronoQrCodeText({ chrono: CHRONO, resIdMaster: 7, resId: null, title: 'Objet' })

async function merged(format: string, bytes: Uint8Array, chrono = CHRONO) {
  const merge = prepareChronoMerge(format, bytes)
  if (merge === null) throw new Error('expected a merge')
  const pictures = await renderChronoPictures(merge.pictures, { chrono, qrCodeText: QR_TEXT })
  return { merge, out: merge.fill(chrono, pictures) }
}

const blips = (xml: string) => [...xml.matchAll(/r:embed="([^"]*)"/g)].map((m) => m[1])

describe('chronoQrCodeText', () => {
  it('writes the reference QR code object as PHP json_encode does', () => {
    expect(QR_TEXT).toBe('{"chrono":"MAARCH\\/2026A\\/42","resIdMaster":7,"resId":null,"title":"Objet"}')
    expect(chronoQrCodeText({ chrono: '', resIdMaster: null, resId: null, title: 'Réponse « urgente » 😀' })).toBe(
      '{"chrono":"","resIdMaster":null,"resId":null,"title":"R\\u00e9ponse \\u00ab urgente \\u00bb \\ud83d\\ude00"}',
    )
  })

  it('is ASCII, parses back to its fields, and never leaves a slash unescaped', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.option(fc.string({ unit: 'grapheme' })),
        fc.option(fc.nat()),
        (chrono, title, resIdMaster) => {
          const text = chronoQrCodeText({ chrono, resIdMaster, resId: null, title })
          expect(text).toMatch(/^[\x20-\x7e]*$/)
          expect(text).not.toMatch(/(^|[^\\])\//)
          expect(JSON.parse(text)).toEqual({ chrono, resIdMaster, resId: null, title })
          expect(Object.keys(JSON.parse(text))).toEqual(['chrono', 'resIdMaster', 'resId', 'title'])
        },
      ),
    )
  })
})

describe('taggedPictureKinds', () => {
  it('finds both tags, with or without TBS options, in any letter case', () => {
    expect(taggedPictureKinds(`a ${QR_TAG} b [attachments.chronobarcode] c`)).toEqual(new Set(['qrCode', 'barCode']))
    expect(taggedPictureKinds('[attachments.chrono] [res_letterbox.alt_identifier] [attachments.chronoQrCode')).toEqual(
      new Set(),
    )
  })
})

describe('barcode and QR code pictures (reference MergeController::mergeChronoDocument)', () => {
  it('puts the QR code into the tagged docx picture: its own relationship, the PNG, the content type, the tag gone', async () => {
    const file = docxWithPictures([picture('rId4', `QR ${QR_TAG}`), picture('rId4', 'Logo')])
    const { merge, out } = await merged('docx', file)
    expect(merge.pictures).toEqual(new Set(['qrCode']))
    const xml = partOf(out, 'word/document.xml')
    // The tagged picture now has its own image; the untagged one that shared its image keeps it.
    expect(blips(xml)).toEqual(['rIdMailroomChronoQrCode', 'rId4'])
    expect(xml).toContain('descr="QR "')
    expect(xml).not.toContain('attachments.')
    const rels = partOf(out, 'word/_rels/document.xml.rels')
    expect(rels).toContain('<Relationship Id="rId4" ')
    expect(rels).toContain(
      '<Relationship Id="rIdMailroomChronoQrCode" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/mailroom-chrono-qrcode.png"/></Relationships>',
    )
    expect(partOf(out, '[Content_Types].xml')).toContain('<Default Extension="png" ContentType="image/png"/></Types>')
    const png = entryOf(out, 'word/media/mailroom-chrono-qrcode.png') as Uint8Array
    expect(await sniffMimeType(png)).toBe('image/png')
    expect(readCode(png, 'qrCode')).toBe(QR_TEXT)
    expect(entryOf(out, 'word/media/image1.jpeg')).toEqual(PLACEHOLDER_IMAGE)
    expect(await sniffMimeType(out)).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
  })

  it('puts the barcode of the chrono into a header picture, creating the header relationships, and fills the text too', async () => {
    const header = `<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p>${picture('rId1', BAR_TAG)}${run(P)}</w:p></w:hdr>`
    const file = docxWithPictures([run(`Chrono : ${P}`)], { 'word/header1.xml': header })
    const { merge, out } = await merged('docx', file)
    expect(merge.pictures).toEqual(new Set(['barCode']))
    expect(wordParagraphs(partOf(out, 'word/document.xml'))).toEqual([`Chrono : ${CHRONO}`])
    const headerXml = partOf(out, 'word/header1.xml')
    expect(blips(headerXml)).toEqual(['rIdMailroomChronoBarCode'])
    expect(wordParagraphs(headerXml)).toEqual([CHRONO])
    expect(partOf(out, 'word/_rels/header1.xml.rels')).toContain('Id="rIdMailroomChronoBarCode"')
    expect(partOf(out, 'word/_rels/document.xml.rels')).not.toContain('Mailroom')
    expect(readCode(entryOf(out, 'word/media/mailroom-chrono-barcode.png') as Uint8Array, 'code128')).toBe(CHRONO)
  })

  it('keeps the image of a barcode picture when the record has no chrono, and drops the tag', async () => {
    const file = docxWithPictures([picture('rId4', BAR_TAG), run(P)])
    const { out } = await merged('docx', file, '')
    const xml = partOf(out, 'word/document.xml')
    expect(blips(xml)).toEqual(['rId4'])
    expect(xml).not.toContain('attachments.')
    expect(entryOf(out, 'word/media/mailroom-chrono-barcode.png')).toBeUndefined()
    expect(partOf(out, 'word/_rels/document.xml.rels')).toBe(partOf(file, 'word/_rels/document.xml.rels'))
  })

  it('puts the QR code into a tagged odt frame and lists it in the manifest, mimetype still first', async () => {
    const file = odtWithPictures(`${odfFrame(`Code ${QR_TAG}`)} ${P}`, odfFrame('Logo'))
    const { out } = await merged('odt', file)
    const content = partOf(out, 'content.xml')
    expect(content).toContain('xlink:href="Pictures/mailroom-chrono-qrcode.png"')
    expect(content).toContain('<svg:title>Code </svg:title>')
    expect(content).toContain(` ${CHRONO}</text:p>`)
    expect(partOf(out, 'styles.xml')).toContain('xlink:href="Pictures/placeholder.jpg"')
    expect(partOf(out, 'META-INF/manifest.xml')).toContain(
      '<manifest:file-entry manifest:full-path="Pictures/mailroom-chrono-qrcode.png" manifest:media-type="image/png"/></manifest:manifest>',
    )
    expect(Object.keys(unzipSync(out))[0]).toBe('mimetype')
    expect(readCode(entryOf(out, 'Pictures/mailroom-chrono-qrcode.png') as Uint8Array, 'qrCode')).toBe(QR_TEXT)
    expect(await sniffMimeType(out)).toBe('application/vnd.oasis.opendocument.text')
  })

  it('merges a file whose only field is a tagged picture, and leaves formats the reference does not swap alone', async () => {
    expect(prepareChronoMerge('docx', docxWithPictures([picture('rId4', QR_TAG)]))?.pictures).toEqual(
      new Set(['qrCode']),
    )
    expect(prepareChronoMerge('docx', docx([run('[attachments.chronoQrCode] en texte seulement')]))?.pictures).toEqual(
      new Set(['qrCode']),
    )
    expect(prepareChronoMerge('xlsx', xlsx(`<t>${QR_TAG}</t>`, 'x'))).toBeNull()
    const sheet = prepareChronoMerge('xlsx', xlsx(`<t>${QR_TAG}</t>`, P))
    expect(sheet?.pictures).toEqual(new Set())
  })

  it('is a function of its input: the same file and values give the same bytes', async () => {
    const file = docxWithPictures([picture('rId4', QR_TAG), picture('rId4', BAR_TAG)])
    const [a, b] = [await merged('docx', file), await merged('docx', file)]
    expect(a.out).toEqual(b.out)
  })
})

describe('barcode and QR code pictures in files made by LibreOffice', () => {
  const samples = [
    ['docx', 'chrono-pictures.docx', 'word/media/'],
    ['odt', 'chrono-pictures.odt', 'Pictures/'],
  ] as const

  for (const [format, sample, media] of samples) {
    it(`swaps both pictures of ${sample} and keeps its own image`, async () => {
      const file = readSample(sample)
      const { merge, out } = await merged(format, file)
      expect(merge.pictures).toEqual(new Set(['qrCode', 'barCode']))
      expect(readCode(entryOf(out, `${media}mailroom-chrono-qrcode.png`) as Uint8Array, 'qrCode')).toBe(QR_TEXT)
      expect(readCode(entryOf(out, `${media}mailroom-chrono-barcode.png`) as Uint8Array, 'code128')).toBe(CHRONO)
      const original = Object.keys(unzipSync(file)).filter((name) => name.startsWith(media))
      expect(original.length).toBeGreaterThan(0)
      for (const name of original) expect(entryOf(out, name)).toEqual(entryOf(file, name))
    })
  }

  describe.skipIf(!findSoffice() || !hasPdftotext())('converted to PDF by LibreOffice', () => {
    for (const [format, sample] of samples) {
      it(`shows the chrono, a readable QR code and a readable barcode on the page (${sample})`, async () => {
        const converter = new LibreOfficeConverter({ mode: 'process' })
        try {
          const pdf = await converter.convert({ bytes: (await merged(format, readSample(sample))).out, format })
          expect(pdfText(pdf)).toContain(`Courrier ${CHRONO}`)
          const page = pdfPagePng(pdf)
          expect(readCode(page, 'qrCode')).toBe(QR_TEXT)
          expect(readCode(page, 'code128')).toBe(CHRONO)
        } finally {
          await converter.close()
        }
      }, 120_000)
    }
  })
})
