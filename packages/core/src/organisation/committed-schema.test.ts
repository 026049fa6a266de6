import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { organisationJsonSchema } from './organisation-schema.js'

const committed = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'organisation.schema.json')

describe('organisation.schema.json in the repository', () => {
  it('is the schema generated from the zod schema (run `pnpm build` to refresh it)', () => {
    expect(JSON.parse(readFileSync(committed, 'utf8'))).toEqual(organisationJsonSchema())
  })
})
