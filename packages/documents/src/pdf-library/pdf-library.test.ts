import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const INDEX = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '../index.ts')).href

// A loader hook that prints every module a fresh Node process loads, then the package's entry, then the library.
const HOOK = `export async function load(url, context, next) { if (url.includes('/@cantoo/pdf-lib/')) process.stdout.write('pdf-lib\\n'); return next(url, context) }`
const SCRIPT = `
import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}))
const documents = await import(${JSON.stringify(INDEX)})
process.stdout.write('imported ' + typeof documents.pdfWatermarker.watermark + '\\n')
const { pdfLibrary } = await import(${JSON.stringify(INDEX.replace(/index\.ts$/, 'pdf-library/pdf-library.ts'))})
const library = await pdfLibrary()
process.stdout.write('loaded ' + typeof library.pdfLib.PDFDocument.create + '\\n')
`

describe('pdf-lib is loaded on first use', () => {
  it('importing the package loads none of it; the first PDF work does', () => {
    const out = execFileSync(
      process.execPath,
      ['--conditions=source', '--no-deprecation', '--import', 'tsx', '--input-type=module', '-e', SCRIPT],
      { encoding: 'utf8' },
    )
    const lines = out.trim().split('\n')
    const imported = lines.indexOf('imported function')
    expect(imported).toBeGreaterThanOrEqual(0)
    expect(lines.slice(0, imported)).not.toContain('pdf-lib')
    expect(lines.slice(imported)).toContain('pdf-lib')
    expect(lines.at(-1)).toBe('loaded function')
  })
})
