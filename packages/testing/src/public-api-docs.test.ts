import { describe, expect, it } from 'vitest'
// The generator lives in scripts/ so `pnpm build` can run it without a build of its own.
import { collectPublicApi } from '../../../scripts/api-docs.mjs'

describe('public API documentation', () => {
  const entries = collectPublicApi() as {
    name: string
    symbols: { name: string; doc: string | null; file: string }[]
  }[]

  it.each(entries.map((e) => [e.name, e] as const))('every export of %s has a doc comment', (_name, entry) => {
    expect(entry.symbols.length).toBeGreaterThan(0)
    const undocumented = entry.symbols.filter((s) => !s.doc).map((s) => `${s.name} (${s.file})`)
    expect(undocumented).toEqual([])
  })
})
