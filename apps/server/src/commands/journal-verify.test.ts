import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JournalEvent } from '@mailroom/core'
import type { JournalVerification, SafeVerification } from '@mailroom/mailroom'
import * as embedded from '@mailroom/mailroom'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildJournalReadEvent, chainPositionAfter } from '../../../../packages/testing/src/test-core-internals.js'
import { createDemoDatabase } from '../../test/demo-database.js'
import { runCli } from '../cli.js'
import { loadConfig } from '../config.js'
import { formatSafeVerification, runJournalVerify } from './journal-verify.js'

const HASH = 'a'.repeat(64)
const SAFE = '21750001600019'

function sink() {
  const lines: string[] = []
  return { lines, write: (text: string) => lines.push(text) }
}

describe('runJournalVerify', () => {
  const intact: SafeVerification = {
    safe: 'S1',
    ok: true,
    events: 12,
    files: 4,
    head: { sequence: 12, hash: HASH },
    pending: 0,
  }
  const broken: SafeVerification = {
    safe: 'S2',
    ok: false,
    events: 2,
    files: 1,
    head: { sequence: 9, hash: HASH },
    pending: 0,
    break: {
      reason: 'altered-file',
      sequence: 3,
      eventId: 'mailroom_x-1',
      resId: '42',
      detail: 'Record 42 was deposited with SHA-256 …',
    },
  }

  it('prints one line per safe and exits 0 when everything is intact', async () => {
    const out = sink()
    const verify = vi.fn(
      async (): Promise<JournalVerification> => ({
        ok: true,
        safes: [intact, { ...intact, safe: 'S3', events: 0, files: 0, head: null }],
      }),
    )
    expect(await runJournalVerify(verify, undefined, out)).toBe(0)
    expect(verify).toHaveBeenCalledWith(undefined)
    expect(out.lines).toEqual([
      `safe S1: intact, 12 events, 4 stored files checked, head 12 ${HASH}\n`,
      'safe S3: intact, no events\n',
    ])
  })

  it('exits 1 and prints the first break of each broken safe', async () => {
    const out = sink()
    expect(await runJournalVerify(async () => ({ ok: false, safes: [intact, broken] }), 'S2', out)).toBe(1)
    expect(out.lines[1]).toBe(
      'safe S2: BROKEN at sequence 3 (event mailroom_x-1): altered-file [record 42]: Record 42 was deposited with SHA-256 …\n',
    )
    expect(
      formatSafeVerification({
        ...broken,
        break: { reason: 'truncated', sequence: null, eventId: null, detail: 'The chain has 8 events' },
      }),
    ).toBe('safe S2: BROKEN after the last event: truncated: The chain has 8 events')
    expect(
      formatSafeVerification({
        ...broken,
        break: { reason: 'unknown-safe', sequence: null, eventId: null, detail: '' },
      }),
    ).toBe('safe S2: unknown safe')
  })

  it('says so when there is no journal at all', async () => {
    const out = sink()
    expect(await runJournalVerify(async () => ({ ok: true, safes: [] }), undefined, out)).toBe(0)
    expect(out.lines).toEqual(['no digital-safe journal to verify\n'])
  })
})

// End to end through `mailroom journal verify`, once @mailroom/mailroom exports verifyJournal.
describe.skipIf(!('verifyJournal' in embedded))('mailroom journal verify', () => {
  let dataDir: string
  let env: Record<string, string>
  let drop: () => Promise<void> = async () => {}

  async function withDatabase(action: (db: embedded.MailroomDatabase['db']) => Promise<unknown>) {
    const database = await embedded.openDatabase(loadConfig(env).database)
    try {
      await action(database.db)
    } finally {
      await database.close()
    }
  }

  async function cli(...args: string[]): Promise<{ code: number; output: string }> {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      const code = await runCli(args, env)
      return { code, output: write.mock.calls.map((call) => String(call[0])).join('') }
    } finally {
      write.mockRestore()
      errors.mockRestore()
    }
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mailroom-journal-'))
    const database = await createDemoDatabase(dataDir)
    drop = database.drop
    env = { MAILROOM_DATA_DIR: dataDir, MAILROOM_SECRET: 'journal-test-secret-0123456789', LOG_LEVEL: 'silent' }
    if (database.url) env.DATABASE_URL = database.url
    const config = loadConfig(env)
    const mailroom = await embedded.createMailroom({
      database: config.database,
      docserverDir: config.docserverDir,
      secret: config.secret,
      demo: true,
    })
    await mailroom.close()
    // A chain of three journal reads (events without stored files), as the journal would append them.
    const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
    const events: JournalEvent[] = []
    for (let i = 0; i < 3; i += 1) {
      events.push(
        buildJournalReadEvent(
          { sha256Hex, newEventId: () => `mailroom_cli-${i}` },
          {
            position: chainPositionAfter(SAFE, events.at(-1) ?? null),
            actor: { accountId: 'cchaplin', accountName: 'Charlie CHAPLIN', orgUnitRegNumber: 'VILLE' },
            timestamp: new Date(Date.UTC(2024, 0, 1, 0, 0, i)),
            organizationRegNumber: SAFE,
            orgName: 'Ville de Maarch-les-Bains',
            ownerOrgId: SAFE,
          },
        ),
      )
    }
    await withDatabase(async (db) => {
      for (const e of events) {
        await db
          .insertInto('journal_events')
          .values({
            safe: e.safe,
            sequence: e.sequence,
            event_id: e.eventId,
            event_type: e.eventType,
            timestamp: e.timestamp,
            instance_name: e.instanceName,
            org_reg_number: e.orgRegNumber,
            org_unit_reg_number: e.orgUnitRegNumber,
            account_id: e.accountId,
            account_name: e.accountName,
            object_class: e.objectClass,
            object_id: e.objectId,
            operation_result: e.operationResult,
            description: e.description,
            info: JSON.stringify(e.info),
            previous_hash: e.previousHash,
            hash: e.hash,
          })
          .execute()
      }
      await db
        .insertInto('journal_heads')
        .values({ safe: SAFE, last_sequence: 3, last_hash: events[2]!.hash })
        .execute()
    })
  })
  afterAll(async () => {
    await drop()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('refuses other subcommands', async () => {
    expect((await cli('journal')).code).toBe(2)
    expect((await cli('journal', 'check')).code).toBe(2)
    expect((await cli('journal', 'verify', SAFE, 'extra')).code).toBe(2)
  })

  it('exits 0 on an intact journal, 1 on an unknown safe', async () => {
    const all = await cli('journal', 'verify')
    expect(all.code).toBe(0)
    expect(all.output).toMatch(
      new RegExp(`^safe ${SAFE}: intact, 3 events, 0 stored files checked, head 3 [0-9a-f]{64}\n$`),
    )
    expect(await cli('journal', 'verify', 'NOPE')).toEqual({ code: 1, output: 'safe NOPE: unknown safe\n' })
  })

  it('exits 1 on a tampered chain and names the first break', async () => {
    // Rows can be added (only UPDATE and DELETE are refused by the trigger): a copy at the next sequence.
    await withDatabase(async (db) => {
      const row = await db.selectFrom('journal_events').selectAll().where('sequence', '=', 2).executeTakeFirstOrThrow()
      await db
        .insertInto('journal_events')
        .values({ ...row, sequence: 4, event_id: 'mailroom_cli-forged', info: JSON.stringify(row.info) })
        .execute()
    })
    const result = await cli('journal', 'verify', SAFE)
    expect(result.code).toBe(1)
    expect(result.output).toBe(
      `safe ${SAFE}: BROKEN at sequence 4 (event mailroom_cli-forged): edited: Event 4 in stored order does not match its hash\n`,
    )
  })
})
