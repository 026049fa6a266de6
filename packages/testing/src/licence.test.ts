import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const PUBLISHED = [
  'packages/core',
  'packages/storage',
  'packages/object-store',
  'packages/directory',
  'packages/documents',
  'packages/mailroom',
  'packages/http-koa',
  'packages/sdk',
  'apps/server',
]
const PRIVATE = ['packages/testing', 'examples/embed', 'bench']
const read = (...path: string[]) => readFileSync(join(root, ...path), 'utf8')

describe('licence (Apache-2.0 for the whole repository)', () => {
  const licence = read('LICENSE')
  const notice = read('NOTICE')

  it('has the Apache License 2.0 text and a NOTICE at the root', () => {
    expect(licence).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/)
    expect(licence).toContain('END OF TERMS AND CONDITIONS')
    expect(notice).toMatch(/^Mailroom\nCopyright \d{4} The Mailroom authors\n/)
    expect(JSON.parse(read('package.json')).license).toBe('Apache-2.0')
  })

  it.each([...PUBLISHED, ...PRIVATE])('%s declares Apache-2.0 and carries the LICENSE file', (dir) => {
    expect(JSON.parse(read(dir, 'package.json')).license).toBe('Apache-2.0')
    expect(read(dir, 'LICENSE')).toBe(licence)
  })

  it.each(PUBLISHED)('%s carries the NOTICE file (published packages)', (dir) => {
    expect(read(dir, 'NOTICE')).toBe(notice)
  })

  it('NOTICE carries the licence of the DejaVu font embedded in watermarked PDFs, word for word', () => {
    // Resolved from documents, which depends on the font package: a font upgrade that changes its licence fails here.
    const documents = createRequire(join(root, 'packages/documents/package.json'))
    const fontLicence = readFileSync(
      join(dirname(documents.resolve('dejavu-fonts-ttf/package.json')), 'LICENSE'),
      'utf8',
    )
    expect(notice).toContain(fontLicence)
  })
})
