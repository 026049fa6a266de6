import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../../test/generated-source.js'
import { importCollecting } from '../../test/import-helpers.js'
import { type VerifyDifference, verifyMaarchImport } from '../index.js'

let s: TestServer
let source: GeneratedSource
beforeAll(async () => {
  source = await createGeneratedSource({ records: 30 })
  s = await startTestServer({ mailroom: { demo: false } })
  await importCollecting(s.mailroom, { from: source.url, docservers: { root: source.docservers } })
}, 180_000)
afterAll(async () => {
  await s?.close()
  await source?.drop()
})

const verify = async () => {
  const differences: VerifyDifference[] = []
  const result = await verifyMaarchImport(s.mailroom, {
    from: source.url,
    docservers: { root: source.docservers },
    onDifference: (d) => differences.push(d),
  })
  return { result, differences }
}

describe('verifying an import of a generated Maarch 20.10 installation', () => {
  it('finds nothing different after a clean import, with equal counts on both sides', async () => {
    const { result, differences } = await verify()
    expect(differences).toEqual([])
    expect(result.ok).toBe(true)
    console.log(result)
  })
})
