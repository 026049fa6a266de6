import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openMaarchSource } from '../src/index.js'
import { createMaarchSource } from './maarch-source.js'

let other: { url: string; drop(): void }
let current: { url: string; drop(): void }
beforeAll(() => {
  current = createMaarchSource()
  other = createMaarchSource(`update parameters set param_value_string = '21.03.4' where id = 'database_version'`)
}, 120_000)
afterAll(() => {
  current?.drop()
  other?.drop()
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
      expect(source.version).toBe('20.10.16')
      await expect(source.rows(`update res_letterbox set subject = 'x'`)).rejects.toThrow(/read-only transaction/)
    } finally {
      await source.close()
    }
  })
})
