import { request } from 'node:http'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../testing/src/fixtures/files/index.js'
import {
  expectSameShape,
  type MaarchExchange,
  maarchExchange,
  readMaarchExchanges,
  replayMaarchRequest,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

/**
 * Each recorded request of Maarch 20.10's attachment routes, sent to Mailroom (demo organisation, plus the
 * records and attachments this test creates in place of the sample's), and Mailroom's answer compared with
 * Maarch's: status, error message, body shape. Where Mailroom answers otherwise on purpose (docs/attachments.md
 * lists each difference), the test says what it answers instead.
 */

const PDF = Buffer.from(makePdf({ pages: 1 })).toString('base64')

let s: TestServer
/** The sample's ids (records and attachments of the recording) → the ones this test made. */
const records = new Map<number, number>()
const attachments = new Map<number, number>()

async function createRecord(destination: number, subject: string): Promise<number> {
  const answer = await s.call('POST', '/rest/resources', {
    auth: 'cchaplin:maarch',
    body: { modelId: 1, status: 'NEW', subject, destination, encodedFile: PDF, format: 'pdf' },
  })
  expect(answer.status).toBe(200)
  return answer.json.resId as number
}

/** The recorded request with the sample's ids replaced by this test's and its truncated file by a real PDF. */
function prepared(exchange: MaarchExchange): MaarchExchange {
  const request = exchange.request
  const body = request.body
  const mapped = (value: unknown, ids: Map<number, number>) =>
    typeof value === 'number' ? (ids.get(value) ?? value) : value
  const newBody =
    body !== null && typeof body === 'object'
      ? Object.fromEntries(
          Object.entries(body as Record<string, unknown>).map(([key, value]) => {
            if (key === 'encodedFile' && typeof value === 'object') return [key, PDF]
            if (key === 'resIdMaster') return [key, mapped(value, records)]
            if (key === 'originId') return [key, mapped(value, attachments)]
            return [key, value]
          }),
        )
      : body
  const path = request.path
    .replace(/^\/resources\/(\d+)\//, (_, id) => `/resources/${records.get(Number(id)) ?? id}/`)
    .replace(/^\/attachments\/(\d+)/, (_, id) => `/attachments/${attachments.get(Number(id)) ?? id}`)
  return { ...exchange, request: { ...request, body: newBody, path } }
}

const replay = (exchange: MaarchExchange) => replayMaarchRequest(s, prepared(exchange))

async function stored(): Promise<{ rows: number; files: number }> {
  const rows = (await sql<{ n: number }>`select count(*)::int as n from res_attachments`.execute(s.mailroom.db))
    .rows[0]!.n
  let files = 0
  for await (const file of s.mailroom.documentStore.list()) if (file.key.startsWith('attachments/')) files++
  return { rows, files }
}

beforeAll(async () => {
  s = await startTestServer()
  // The sample's letter 22 (cchaplin's), record 1 (bbain's entity PJS) and record 2 (DRH: outside bbain's perimeter).
  records.set(22, await createRecord(1, 'Lettre de la piscine'))
  records.set(1, await createRecord(6, 'Demande de dérogation'))
  records.set(2, await createRecord(4, 'Dossier du personnel'))
  records.set(99999, 999999)
  attachments.set(99999, 999999)
})
afterAll(async () => s?.close())

describe('POST /rest/attachments as Maarch 20.10 answers it', () => {
  const file = 'attachments-create.json'

  it('creates a response project, an attachment with chrono and recipient, then a new version', async () => {
    const first = maarchExchange(file, 'response project')
    const answer = await replay(first)
    expectSameShape(answer, first.response)
    attachments.set(11, answer.json.id)
    const second = maarchExchange(file, 'simple attachment with chrono and recipient')
    const withChrono = await replay(second)
    expectSameShape(withChrono, second.response)
    attachments.set(12, withChrono.json.id)
    const version = maarchExchange(file, 'new version (originId)')
    const versionAnswer = await replay(version)
    expectSameShape(versionAnswer, version.response)
    attachments.set(13, versionAnswer.json.id)
    const rows = await s.mailroom.db
      .selectFrom('res_attachments')
      .select(['res_id', 'identifier', 'relation', 'status', 'origin_id', 'fingerprint'])
      .where('res_id', 'in', [attachments.get(11)!, attachments.get(12)!, attachments.get(13)!])
      .orderBy('res_id')
      .execute()
    const year = new Date().getUTCFullYear()
    expect(rows.map((r) => [r.identifier, r.relation, r.status])).toEqual([
      [expect.stringMatching(new RegExp(`^MAARCH/${year}D/\\d+$`)), 1, 'OBS'],
      ['MAARCH/2026D/REC1', 1, 'A_TRA'],
      [expect.stringMatching(new RegExp(`^MAARCH/${year}D/\\d+$`)), 2, 'A_TRA'],
    ])
    expect(Number(rows[2]!.origin_id)).toBe(attachments.get(11))
    expect(rows[0]!.fingerprint).toMatch(/^[0-9a-f]{64}$/)
  })

  it('refuses what Maarch refuses, with its status and message, and stores nothing', async () => {
    const before = await stored()
    const refused = readMaarchExchanges(file).filter(
      (exchange) => exchange.response.status === 400 && exchange.request.user !== null,
    )
    expect(refused.length).toBeGreaterThanOrEqual(17)
    for (const exchange of refused) {
      const answer = await replay(exchange)
      expect({ name: exchange.name, status: answer.status, body: answer.json }).toEqual({
        name: exchange.name,
        status: 400,
        body: exchange.response.body,
      })
    }
    expect(await stored()).toEqual(before)
  })

  it('stores an attachment without title, and one with a recipientType alone (ignored)', async () => {
    for (const name of ['missing title', 'recipientType without recipientId']) {
      const exchange = maarchExchange(file, name)
      expectSameShape(await replay(exchange), exchange.response)
    }
  })

  it('answers 400 naming the field where Maarch answers 500 or stores a non-string title; nothing stored', async () => {
    const before = await stored()
    const long = maarchExchange(file, '10,000-character title')
    expect(long.response.status).toBe(500)
    const answer = await replay(long)
    expect([answer.status, answer.json]).toEqual([400, { errors: 'Body title length is not valid (1..255)' }])
    const number = maarchExchange(file, 'title not a string')
    expect(number.response.status).toBe(200)
    const numberAnswer = await replay(number)
    expect([numberAnswer.status, numberAnswer.json]).toEqual([400, { errors: 'Body title is not a string' }])
    // 20.10 takes whatever PHP's strtotime reads ("tomorrow"); Mailroom the record dates' forms.
    const tomorrow = maarchExchange(file, 'validationDate not a date')
    expect(tomorrow.response.status).toBe(200)
    const tomorrowAnswer = await replay(tomorrow)
    expect([tomorrowAnswer.status, tomorrowAnswer.json]).toEqual([400, { errors: 'Body validationDate is not a date' }])
    expect(await stored()).toEqual(before)
  })

  it('refuses a 50 MB file with a clear 413 before anything is stored', async () => {
    const before = await stored()
    const big = Buffer.alloc(50 * 1024 * 1024, 0x20)
    big.write('%PDF-1.4\n')
    const body = Buffer.from(
      JSON.stringify({
        resIdMaster: records.get(22),
        type: 'simple_attachment',
        encodedFile: big.toString('base64'),
        format: 'pdf',
      }),
    )
    // The answer comes before the body is sent whole, and the server then closes: read it as it comes (fetch
    // may see the reset of the unread body first).
    const answer = await new Promise<{ status: number; json: unknown }>((resolve, reject) => {
      const call = request(`${s.baseUrl}/rest/attachments`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('cchaplin:maarch').toString('base64')}`,
          'content-type': 'application/json',
          'content-length': String(body.length),
        },
      })
      const ignoreReset = (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error)
      }
      call.on('socket', (socket) => socket.on('error', ignoreReset))
      call.on('response', (response) => {
        response.on('error', ignoreReset)
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString()) }),
        )
      })
      call.on('error', ignoreReset)
      call.end(body)
    })
    expect(answer).toEqual({ status: 413, json: { errors: 'Body is larger than the configured limit' } })
    expect(await stored()).toEqual(before)
  })
})

describe('GET /rest/attachmentsTypes as Maarch 20.10 answers it', () => {
  it('lists the demo organisation types, those of the sample', async () => {
    const exchange = maarchExchange('attachments-types.json', 'list')
    const answer = await replay(exchange)
    expectSameShape(answer, exchange.response)
    expect(answer.json).toEqual(exchange.response.body)
  })
})

describe('GET /rest/resources/{resId}/attachments and /rest/attachments/{id} as Maarch 20.10 answers them', () => {
  const file = 'attachments-read.json'

  beforeAll(async () => {
    // The sample's attachments 1 (record 1, bbain's) and 2 (record 2, outside bbain's perimeter).
    for (const [sample, record] of [
      [1, 1],
      [2, 2],
    ] as const) {
      const answer = await s.call('POST', '/rest/attachments', {
        auth: 'cchaplin:maarch',
        body: {
          resIdMaster: records.get(record),
          type: 'response_project',
          title: 'ar_derogation',
          status: 'A_TRA',
          recipientId: 1,
          recipientType: 'contact',
          encodedFile: PDF,
          format: 'pdf',
        },
      })
      expect(answer.status).toBe(200)
      attachments.set(sample, answer.json.id)
    }
  })

  it('lists the current attachments of a record, latest first', async () => {
    const exchange = maarchExchange(file, 'attachments of the letter')
    const answer = await replay(exchange)
    expectSameShape(answer, exchange.response, { anyTypeAt: ['attachments.*'] })
    for (const item of answer.json.attachments)
      expectSameShape(
        { status: 200, json: item },
        {
          status: 200,
          body: (exchange.response.body as { attachments: unknown[] }).attachments[0],
        },
        { anyTypeAt: ['chrono', 'title'] },
      )
    const ids = answer.json.attachments.map((a: { resId: number }) => a.resId)
    expect(ids).toContain(attachments.get(13))
    expect(ids).not.toContain(attachments.get(11))
    expect(answer.json.attachments[0].typistLabel).toBe('Charlie CHAPLIN')
    const asBbain = maarchExchange(file, 'attachments of record 1 as bbain')
    expectSameShape(await replay(asBbain), asBbain.response, { anyTypeAt: ['attachments.0.status'] })
  })

  it('answers 403 for a bad, unknown or forbidden record and a bad limit', async () => {
    for (const name of [
      'attachments of a record out of perimeter',
      'attachments of an unknown record',
      'attachments of a non-integer record',
      'attachments with a non-integer limit',
    ]) {
      const exchange = maarchExchange(file, name)
      expectSameShape(await replay(exchange), exchange.response)
    }
  })

  it('reads one attachment with its versions; a superseded version does not exist', async () => {
    const one = maarchExchange(file, 'one attachment')
    const answer = await replay(one)
    expectSameShape(answer, one.response, { anyTypeAt: ['fulltextResult'] })
    expect(answer.json).toMatchObject({ chrono: 'MAARCH/2026D/REC1', recipientId: 1, recipientType: 'contact' })
    expect(answer.json.validationDate).toBe('2027-01-01 00:00:00')
    const version = maarchExchange(file, 'the new version (versions listed)')
    const versionAnswer = await replay(version)
    expectSameShape(versionAnswer, version.response, { anyTypeAt: ['fulltextResult'] })
    expect(versionAnswer.json).toMatchObject({
      relation: 2,
      originId: attachments.get(11),
      versions: [{ resId: attachments.get(11), relation: 1 }],
    })
    for (const name of [
      'the first version, once superseded',
      'sample attachment 1 as bbain',
      'sample attachment 2 as bbain (out of perimeter)',
      'unknown attachment',
    ]) {
      const exchange = maarchExchange(file, name)
      expectSameShape(await replay(exchange), exchange.response, { anyTypeAt: ['status'] })
    }
  })

  it('answers 400 Route id is not an integer where Maarch answers 500', async () => {
    const exchange = maarchExchange(file, 'non-integer attachment')
    expect(exchange.response.status).toBe(500)
    const answer = await replay(exchange)
    expect([answer.status, answer.json]).toEqual([400, { errors: 'Route id is not an integer' }])
  })
})

describe('GET /rest/attachments/{id}/content and /originalContent as Maarch 20.10 answers them', () => {
  const file = 'attachments-content.json'

  it('serves the PDF and the original, as files and in base64, superseded versions too', async () => {
    for (const exchange of readMaarchExchanges(file).filter((e) => e.response.status === 200)) {
      const answer = await replay(exchange)
      if (exchange.request.query.mode === 'base64') {
        expectSameShape(answer, exchange.response, { anyTypeAt: ['encodedDocument'] })
        expect(typeof answer.json.encodedDocument).toBe('string')
        expect(Buffer.from(answer.json.encodedDocument, 'base64').subarray(0, 5).toString()).toBe('%PDF-')
      } else {
        expect({ name: exchange.name, status: answer.status }).toEqual({ name: exchange.name, status: 200 })
        expect(answer.headers.get('content-type')).toBe('application/pdf')
        expect(Buffer.from(answer.bytes.subarray(0, 5)).toString()).toBe('%PDF-')
      }
    }
    const original = await s.call('GET', `/rest/attachments/${attachments.get(13)}/originalContent?mode=base64`, {
      auth: 'cchaplin:maarch',
    })
    expect(original.json).toMatchObject({ encodedDocument: PDF, filename: 'Projet de réponse v2_V2.pdf' })
  })

  it('refuses an unknown or forbidden attachment as Maarch does, and a non-integer id with 400', async () => {
    for (const exchange of readMaarchExchanges(file).filter((e) => e.response.status !== 200))
      expectSameShape(await replay(exchange), exchange.response)
    for (const route of ['content', 'originalContent']) {
      const answer = await s.call('GET', `/rest/attachments/abc/${route}`, { auth: 'cchaplin:maarch' })
      expect([answer.status, answer.json]).toEqual([400, { errors: 'Route id is not an integer' }])
    }
  })
})
