import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createOpenApiDocument } from './index.js'

const committed = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'openapi.json')

describe('openapi.json in the repository', () => {
  it('is the document the server serves (run `pnpm build` to refresh it)', () => {
    expect(JSON.parse(readFileSync(committed, 'utf8'))).toEqual(JSON.parse(JSON.stringify(createOpenApiDocument())))
  })
})
