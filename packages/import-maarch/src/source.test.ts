import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../test/generated-source.js'
import { openMaarchSource } from './index.js'

let other: GeneratedSource
let current: GeneratedSource
beforeAll(async () => {
  current = await createGeneratedSource({ records: 14 })
  other = await createGeneratedSource({
    records: 14,
    alter: `update parameters set param_value_string = '21.03.4' where id = 'database_version'`,
  })
}, 120_000)
afterAll(async () => {
  await current?.drop()
  await other?.drop()
})

describe('the Maarch source', () => {
  it('refuses another release, naming it', async () => {
    await expect(openMaarchSource(other.url)).rejects.toMatchObject({
      code: 'MAARCH_VERSION_REFUSED',
      message: 'The source is Maarch Courrier 21.03.4; only 20.10.x databases can be imported, nothing was imported',
    })
  })

  it('is read in a read-only transaction: a write is refused by PostgreSQL', async () => {
    const source = await openMaarchSource(current.url)
    try {
      expect(source.version).toBe(current.installation.version)
      await expect(source.rows(`update res_letterbox set subject = 'x'`)).rejects.toThrow(/read-only transaction/)
    } finally {
      await source.close()
    }
  })
})
