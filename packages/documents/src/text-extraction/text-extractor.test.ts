import { describe, expect, it } from 'vitest'
import { hasTesseract, makeScannedLetter } from '../../../testing/src/fixtures/files/index.js'
import { ConversionService } from '../conversion/pdf-converter.js'
import { CommandLineTextExtractor } from './text-extractor.js'

const LETTER = 'Objet : toiture du gymnase municipal\nMadame, la réfection de l’école Émile Zola est urgente.'
const tools = hasTesseract()
if (!tools) console.warn('text extraction tests skipped: run scripts/install-tesseract.sh')

describe.runIf(tools)('CommandLineTextExtractor', () => {
  const extractor = new CommandLineTextExtractor({ language: 'fr', converter: new ConversionService() })

  it('reads a text PDF through its text layer, without OCR', async () => {
    const { textPdf } = await makeScannedLetter(LETTER)
    const read = await extractor.extract({ bytes: textPdf, format: 'PDF' })
    expect(read).toMatchObject({ method: 'text-layer', ocrPages: 0 })
    expect(read.text).toContain('réfection de l’école')
  })

  it('reads a scanned PDF (no text layer) and an image by OCR, accents included', async () => {
    const { png, scannedPdf } = await makeScannedLetter(LETTER)
    const scan = await extractor.extract({ bytes: scannedPdf, format: 'pdf' })
    expect(scan).toMatchObject({ method: 'ocr', ocrPages: 1 })
    expect(scan.text).toMatch(/gymnase/)
    expect(scan.text).toMatch(/réfection/)
    const image = await extractor.extract({ bytes: png, format: 'png' })
    expect(image).toMatchObject({ method: 'ocr', ocrPages: 1 })
    expect(image.text).toMatch(/gymnase/)
  }, 60_000)

  it('reads text files as they are, and gives nothing for formats it cannot read', async () => {
    expect(await extractor.extract({ bytes: new TextEncoder().encode('note école'), format: 'txt' })).toEqual({
      text: 'note école',
      method: 'plain',
      ocrPages: 0,
    })
    expect(await extractor.extract({ bytes: new Uint8Array([1, 2]), format: 'zip' })).toMatchObject({ method: 'none' })
  })

  it('fails on a damaged PDF (the queue retries it)', async () => {
    await expect(
      extractor.extract({ bytes: new TextEncoder().encode('%PDF-1.4 broken'), format: 'pdf' }),
    ).rejects.toThrow(/pdftotext failed/)
  })
})
