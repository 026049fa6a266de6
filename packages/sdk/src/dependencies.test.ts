import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = new URL('.', import.meta.url).pathname

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'examples' ? [] : sources(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

describe('sdk dependencies', () => {
  it('imports nothing at run time but its own files: core is a type-only dependency, fetch is global', () => {
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8')
      for (const match of text.matchAll(/^(import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gm)) {
        const [, , typeOnly, specifier] = match
        if (!typeOnly) expect(specifier, `${file}: ${match[0]}`).toMatch(/^\.\//)
      }
      expect(text, file).not.toMatch(/\bimport\(|require\(|from 'node:/)
    }
  })
})
