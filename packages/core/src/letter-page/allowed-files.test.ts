import { describe, expect, it } from 'vitest'
import { allowedFiles, indexingFileInformations, largestFileInBody } from './allowed-files.js'

describe('the files a record may carry', () => {
  it('lists each extension once per MIME type, upper-case, as 20.10 does', () => {
    const files = allowedFiles()
    expect(files).toContainEqual({ extension: 'PDF', mimeType: 'application/pdf', canConvert: true })
    expect(files).toContainEqual({ extension: 'ZIP', mimeType: 'application/zip', canConvert: false })
    expect(files.filter((f) => f.extension === 'HTML').map((f) => f.mimeType)).toEqual(['text/html', 'text/plain'])
  })

  it('sizes the largest file so that its base64 and the other fields fit in the body', () => {
    for (const limit of [1024, 65536, 2 * 1024 * 1024, 64 * 1024 * 1024]) {
      const size = largestFileInBody(limit)
      expect(size).toBeGreaterThanOrEqual(0)
      expect(Math.ceil(size / 3) * 4).toBeLessThanOrEqual(Math.max(0, limit - 64 * 1024))
    }
    expect(indexingFileInformations(2097152).informations.maximumSizeLabel).toBe('2 Mo')
  })
})
