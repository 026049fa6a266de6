import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import { describe, expect, it } from 'vitest'
import { runEmbedExample } from './embed-example.js'

describe('the embedding example', () => {
  it('creates, searches, reads the PDF and closes a record through the library alone', async () => {
    const database = await createTestDatabase()
    const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-embed-test-'))
    try {
      const outcome = await runEmbedExample({
        database: database.target,
        docserverDir,
        secret: TEST_SECRET,
        passwordHasher: TEST_PASSWORD_HASHER,
      })
      expect(outcome.resId).toBeGreaterThan(0)
      expect(outcome.found).toEqual([
        {
          res_id: outcome.resId,
          alt_identifier: `MAARCH/${new Date().getUTCFullYear()}A/1`,
          subject: 'Demande de subvention — club de football',
          status: 'NEW',
        },
      ])
      expect(outcome.pdfStartsWithMagic).toBe(true)
      expect(outcome.pdfBytes).toBeGreaterThan(500)
      expect(outcome.statusAfter).toBe('END')
      expect(outcome.refusedForOutsider).toBe('Document out of perimeter')
      expect(outcome.organisationPlan).toEqual([
        'entities: +1 ~0 -0 (added: SPORTS)',
        'users: +1 ~0 -0 (added: ssport)',
      ])
      expect(outcome.foundByNewUser).toEqual([{ res_id: outcome.resId }])
    } finally {
      await database.drop()
      await rm(docserverDir, { recursive: true, force: true })
    }
  })
})
