import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findImportCycles } from '@mailroom/testing'
import { describe, expect, it } from 'vitest'

describe('apps/server layout', () => {
  // ConfigError lives in config-error.ts, which config.ts and the loaders it calls (metrics, directory) both
  // import: no loader imports config.ts back.
  it('has no import loop between its files', () => {
    expect(findImportCycles(dirname(fileURLToPath(import.meta.url)))).toEqual([])
  })
})
