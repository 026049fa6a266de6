import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../testing/src/fixtures/files/index.js'
import {
  type MaarchExchange,
  maarchCredentials,
  maarchExchange,
  maarchRequestPath,
  readMaarchExchanges,
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../../../testing/src/index.js'

/**
 * Who may remove an attachment, against what Maarch 20.10 answered (attachments-manage.json): its typist, a holder
 * of manage_attachments, no one else, and only on a record in the perimeter. The demo stands in for the recording:
 * cchaplin (WEBSERVICE) and bbain (AGENT of PJS) hold the privilege in both; ggrand, whom the demo lacks, is added
 * as 20.10's ARCHIVISTE is (perimeter 1=1, no privilege); ddur's perimeter is empty in both. Mailroom does not serve
 * 20.10's PUT /attachments/{id}: its recorded answers are not replayed.
 */

const FILE = 'attachments-manage.json'
const PDF = Buffer.from(makePdf({ pages: 1 })).toString('base64')
const GGRAND_PASSWORD = 'ggrand archive passphrase'

let s: TestServer
/** The recording's ids → this test's. */
const records = new Map<number, number>()
const attachments = new Map<number, number>()

const credentials = (user: string | null) => (user === 'ggrand' ? `ggrand:${GGRAND_PASSWORD}` : maarchCredentials(user))

/** Sends a recorded request with the recording's ids replaced by this test's and its truncated file by a PDF. */
function replay(exchange: MaarchExchange): Promise<TestResponse> {
  const { request } = exchange
  const path = maarchRequestPath(exchange).replace(
    /^\/rest\/(attachments|resources)\/(\d+)/,
    (_, kind: string, id: string) =>
      `/rest/${kind}/${(kind === 'attachments' ? attachments : records).get(Number(id)) ?? id}`,
  )
  const body =
    request.body !== null && typeof request.body === 'object'
      ? {
          ...(request.body as Record<string, unknown>),
          encodedFile: PDF,
          ...('resIdMaster' in request.body ? { resIdMaster: records.get(request.body.resIdMaster as number) } : {}),
          ...('originId' in request.body ? { originId: attachments.get(request.body.originId as number) } : {}),
        }
      : undefined
  return s.call(request.method, path, { auth: credentials(request.user), ...(body ? { body } : {}) })
}

/** The recorded answer and Mailroom's: status and error body alike. */
async function expectSameAnswer(name: string): Promise<TestResponse> {
  const exchange = maarchExchange(FILE, name)
  const answer = await replay(exchange)
  const expected = exchange.response.status >= 400 ? exchange.response.body : undefined
  expect({ name, status: answer.status, errors: answer.status >= 400 ? answer.json : undefined }).toEqual({
    name,
    status: exchange.response.status,
    errors: expected,
  })
  return answer
}

const statusOf = async (maarchId: number) =>
  (
    await s.mailroom.db
      .selectFrom('res_attachments')
      .select('status')
      .where('res_id', '=', attachments.get(maarchId)!)
      .executeTakeFirstOrThrow()
  ).status

beforeAll(async () => {
  s = await startTestServer()
  const root = 'superadmin:superadmin'
  const exported = (await s.call('GET', '/admin/organisation', { auth: root })).json
  const courrier = (exported.groups as { id: string; serialId: number }[]).find((group) => group.id === 'COURRIER')!
  const serialId = Math.max(...(exported.groups as { serialId: number }[]).map((group) => group.serialId)) + 1
  const archiviste = { ...courrier, id: 'ARCHIVISTE', serialId, label: 'Archiviste', privileges: [] }
  const organised = await s.call('PUT', '/admin/organisation', {
    auth: root,
    body: { version: 1, groups: [...exported.groups, archiviste] },
  })
  expect(organised.status).toBe(200)
  const added = await s.call('POST', '/admin/users', {
    auth: root,
    body: {
      login: 'ggrand',
      firstname: 'Georges',
      lastname: 'GRAND',
      groups: ['ARCHIVISTE'],
      entities: [{ id: 'COU', primary: true }],
      password: GGRAND_PASSWORD,
    },
  })
  expect(added.status).toBe(201)

  const letter = await s.call('POST', '/rest/resources', {
    auth: 'cchaplin:maarch',
    body: {
      modelId: 1,
      status: 'NEW',
      subject: 'Lettre aux pièces jointes',
      destination: 6,
      encodedFile: PDF,
      format: 'pdf',
    },
  })
  expect(letter.status).toBe(200)
  records.set(21, letter.json.resId)
  for (const exchange of readMaarchExchanges(FILE).filter((e) => e.request.path === '/attachments')) {
    const answer = await replay(exchange)
    expect([exchange.name, answer.status]).toEqual([exchange.name, 200])
    attachments.set((exchange.response.body as { id: number }).id, answer.json.id)
  }
  // The sample's attachment 2: on a record outside bbain's perimeter (DRH).
  const outside = await s.call('POST', '/rest/resources', {
    auth: 'cchaplin:maarch',
    body: {
      modelId: 1,
      status: 'NEW',
      subject: 'Dossier du personnel',
      destination: 4,
      encodedFile: PDF,
      format: 'pdf',
    },
  })
  const sample = await s.call('POST', '/rest/attachments', {
    auth: 'cchaplin:maarch',
    body: { resIdMaster: outside.json.resId, type: 'simple_attachment', encodedFile: PDF, format: 'pdf' },
  })
  expect(sample.status).toBe(200)
  attachments.set(2, sample.json.id)
  attachments.set(99999, 999999999)
})
afterAll(async () => s?.close())

describe('DELETE /rest/attachments/{id} as Maarch 20.10 answers it', () => {
  it("refuses another typist's attachment to a clerk without manage_attachments, and keeps it", async () => {
    await expectSameAnswer("remove another typist's attachment without manage_attachments")
    const still = await expectSameAnswer('the attachment is still there')
    expect(still.json).toMatchObject({ title: 'Piece de cchaplin', status: 'A_TRA' })
    expect(await statusOf(9)).toBe('A_TRA')
  })

  it('refuses a record outside the perimeter, with or without the privilege', async () => {
    await expectSameAnswer('remove out of perimeter')
    await expectSameAnswer('remove a sample attachment out of perimeter, with manage_attachments')
    expect([await statusOf(9), await statusOf(2)]).toEqual(['A_TRA', 'A_TRA'])
  })

  it('lets the typist remove her own without the privilege, and a holder of the privilege anyone’s', async () => {
    await expectSameAnswer("remove one's own attachment without manage_attachments")
    expect(await statusOf(14)).toBe('DEL')
    await expectSameAnswer("remove another typist's attachment with manage_attachments")
    expect(await statusOf(9)).toBe('DEL')
    await expectSameAnswer('the removed attachment')
    await expectSameAnswer('remove it again')
  })

  it('removes the original and every version when one version is removed', async () => {
    await expectSameAnswer('remove a version (with manage_attachments)')
    expect([await statusOf(11), await statusOf(12)]).toEqual(['DEL', 'DEL'])
    await expectSameAnswer('the original of the removed version')
  })

  it('answers 400 for an unknown or malformed id', async () => {
    await expectSameAnswer('remove an unknown attachment')
    await expectSameAnswer('remove a non-integer attachment')
  })

  it('lists what is left, as Maarch does', async () => {
    const exchange = maarchExchange(FILE, 'the attachments of the letter')
    const answer = await replay(exchange)
    expect(answer.status).toBe(200)
    const listed = (answer.json.attachments as { resId: number }[]).map((a) => a.resId)
    const recorded = (exchange.response.body as { attachments: { resId: number }[] }).attachments
    expect(listed.sort()).toEqual(recorded.map((a) => attachments.get(a.resId)).sort())
  })

  it("writes 20.10's history rows on the attachment and on its record", async () => {
    const rows = await s.mailroom.db
      .selectFrom('history')
      .select(['table_name', 'record_id', 'event_type', 'info'])
      .where('event_id', '=', 'attachmentSuppression')
      .where('record_id', 'in', [String(attachments.get(14)), String(records.get(21))])
      .orderBy('id')
      .execute()
    expect(rows.slice(0, 2)).toEqual([
      {
        table_name: 'res_attachments',
        record_id: String(attachments.get(14)),
        event_type: 'DEL',
        info: 'Pièce-jointe supprimée : Autre piece de ggrand',
      },
      {
        table_name: 'res_letterbox',
        record_id: String(records.get(21)),
        event_type: 'DEL',
        info: 'Pièce-jointe supprimée : Autre piece de ggrand',
      },
    ])
  })

  it('answers hostile ids with a 400, never a 500, and a root user removes any attachment in reach', async () => {
    for (const id of ['0', '-1', '9'.repeat(40), '1e3', '1%20OR%201=1']) {
      const answer = await s.call('DELETE', `/rest/attachments/${id}`, { auth: 'bbain:maarch' })
      expect([id, answer.status]).toEqual([id, 400])
      expect(['Route id must be an integer val', 'Attachment does not exist']).toContain(answer.json.errors)
    }
    const nul = await s.call('DELETE', '/rest/attachments/1%00', { auth: 'bbain:maarch' })
    expect([nul.status, typeof nul.json.errors]).toEqual([400, 'string'])
    expect((await s.call('DELETE', `/rest/attachments/${attachments.get(10)}`, { auth: null })).status).toBe(401)
    const root = await s.call('DELETE', `/rest/attachments/${attachments.get(10)}`, { auth: 'superadmin:superadmin' })
    expect(root.status).toBe(204)
    expect(await statusOf(10)).toBe('DEL')
  })
})
