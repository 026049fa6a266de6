import { describe, expect, it } from 'vitest'
import {
  makeEml,
  makeGif,
  makeHtml,
  makePdf,
  makePng,
  makeText,
  makeTiff,
  readSample,
} from '../../../testing/src/fixtures/files/index.js'
import { checkFormatAllowed } from '../../../testing/src/test-core-internals.js'
import { sniffMimeType } from './sniff-mime-type.js'

const text = (s: string) => new TextEncoder().encode(s)

describe('sniffMimeType', () => {
  it('recognises generated binary samples', async () => {
    expect(await sniffMimeType(makePdf())).toBe('application/pdf')
    expect(await sniffMimeType(makePng())).toBe('image/png')
    expect(await sniffMimeType(makeGif())).toBe('image/gif')
    expect(await sniffMimeType(makeTiff())).toBe('image/tiff')
  })

  it('recognises the LibreOffice-made samples', async () => {
    expect(await sniffMimeType(readSample('sample.jpg'))).toBe('image/jpeg')
    expect(await sniffMimeType(readSample('sample.docx'))).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    )
    expect(await sniffMimeType(readSample('sample.xlsx'))).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    expect(await sniffMimeType(readSample('sample.odt'))).toBe('application/vnd.oasis.opendocument.text')
    expect(await sniffMimeType(readSample('sample.ods'))).toBe('application/vnd.oasis.opendocument.spreadsheet')
  })

  it('refines legacy compound files with the declared format only', async () => {
    expect(await sniffMimeType(readSample('sample.doc'), 'DOC')).toBe('application/msword')
    expect(await sniffMimeType(readSample('sample.xls'), 'xls')).toBe('application/vnd.ms-excel')
    expect(await sniffMimeType(readSample('sample.doc'), 'ppt')).toBe('application/vnd.ms-powerpoint')
    expect(await sniffMimeType(readSample('sample.doc'), 'exe')).toBe('application/x-cfb')
    expect(await sniffMimeType(readSample('sample.doc'))).toBe('application/x-cfb')
  })

  it('falls back to text kinds', async () => {
    expect(await sniffMimeType(makeText())).toBe('text/plain')
    expect(await sniffMimeType(makeHtml())).toBe('text/html')
    expect(await sniffMimeType(text('  <html><body>x</body></html>'))).toBe('text/html')
    expect(await sniffMimeType(text('<!-- c -->\n<table><tr><td>1</td></tr></table>'))).toBe('text/html')
    expect(await sniffMimeType(makeEml())).toBe('message/rfc822')
    expect(await sniffMimeType(text('From: a@b.c\nSubject: hi\n\nbody'))).toBe('message/rfc822')
    expect(await sniffMimeType(text('Subject: a letter that starts like a header\nDear Sir,\n'))).toBe('text/plain')
    expect(await sniffMimeType(new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x0a]))).toBe('text/plain') // Latin-1 "Café"
    expect(await sniffMimeType(new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0x42, 0x00]))).toBe('text/plain') // UTF-16LE
  })

  it('gives x-empty for empty input and octet-stream for unknown binary', async () => {
    expect(await sniffMimeType(new Uint8Array())).toBe('application/x-empty')
    expect(await sniffMimeType(new Uint8Array([0, 1, 2, 3, 4, 5, 0, 0, 9]))).toBe('application/octet-stream')
  })

  it('feeds the format check: a text file declared as docx is refused with the reference message', async () => {
    const mime = await sniffMimeType(makeText(), 'docx')
    expect(() => checkFormatAllowed('docx', mime)).toThrow('Format with this mimeType is not allowed : docx text/plain')
    expect(() => checkFormatAllowed('docx', 'application/x-empty')).toThrow()
    for (const [format, bytes] of [
      ['pdf', makePdf()],
      ['png', makePng()],
      ['GIF', makeGif()],
      ['tif', makeTiff()],
      ['txt', makeText()],
      ['html', makeHtml()],
      ['eml', makeEml()],
      ['jpg', readSample('sample.jpg')],
      ['docx', readSample('sample.docx')],
      ['odt', readSample('sample.odt')],
      ['xlsx', readSample('sample.xlsx')],
      ['doc', readSample('sample.doc')],
      ['xls', readSample('sample.xls')],
    ] as const) {
      const sniffed = await sniffMimeType(bytes, format)
      expect(() => checkFormatAllowed(format, sniffed), `${format} ${sniffed}`).not.toThrow()
    }
  })
})
