import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const SOURCES = join(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * A fresh Node process that imports the package's entry, then loads the library, and says after each step
 * whether a module of pdf-lib was loaded so far. A loader hook notes each loaded URL in a file: hooks run on a
 * thread of their own, but a module's hook has returned (and written) before the import that needs it resolves.
 */
function loadsInAFreshProcess(): string[] {
  const folder = mkdtempSync(join(tmpdir(), 'mailroom-pdf-library-'))
  const log = join(folder, 'loaded.txt')
  const hook = `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context) }`
  const script = `
import { register } from 'node:module'
import { existsSync, readFileSync } from 'node:fs'
const pdfLibLoaded = () => existsSync(${JSON.stringify(log)}) && readFileSync(${JSON.stringify(log)}, 'utf8').includes('/@cantoo/pdf-lib/')
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}))
const documents = await import(${JSON.stringify(pathToFileURL(join(SOURCES, 'index.ts')).href)})
console.log('imported the package (' + typeof documents.pdfWatermarker.watermark + '), pdf-lib loaded: ' + pdfLibLoaded())
const { pdfLibrary } = await import(${JSON.stringify(pathToFileURL(join(SOURCES, 'pdf-library/pdf-library.ts')).href)})
const library = await pdfLibrary()
console.log('asked for the library (' + typeof library.pdfLib.PDFDocument.create + '), pdf-lib loaded: ' + pdfLibLoaded())
`
  try {
    const out = execFileSync(
      process.execPath,
      ['--conditions=source', '--no-deprecation', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    )
    return out.trim().split('\n')
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

describe('pdf-lib is loaded on first use', () => {
  it('importing the package loads none of it; the first PDF work does', () => {
    expect(loadsInAFreshProcess()).toEqual([
      'imported the package (function), pdf-lib loaded: false',
      'asked for the library (function), pdf-lib loaded: true',
    ])
  })
})
