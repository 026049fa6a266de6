import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../testing/src/fixtures/files/index.js'
import { decodeBase64, encodeBase64 } from './base64.js'
import { createClient, type MailroomClient } from './client.js'
import { MailroomApiError, MailroomNetworkError, MailroomTimeoutError } from './errors.js'

const SAFE = '21750001600019'

let s: TestServer
let bbain: MailroomClient
const pdf = makePdf({ pages: 2 })

beforeAll(async () => {
  s = await startTestServer()
  bbain = createClient({ baseUrl: s.baseUrl, auth: { login: 'bbain', password: 'maarch' } })
})
afterAll(async () => s?.close())

/** A record of bbain's entity (PJS) with a 2-page PDF. */
async function createPdfRecord(subject = 'Demande de subvention') {
  return bbain.createRecord({
    modelId: 1,
    status: 'NEW',
    subject,
    destination: 6,
    chrono: true,
    encodedFile: encodeBase64(pdf),
    format: 'pdf',
  })
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

describe('sdk: authentication and entities', () => {
  it('reads an entity with Basic credentials', async () => {
    expect(await bbain.getEntity('PJS')).toMatchObject({ entity_id: 'PJS', parent_entity_id: 'DGS' })
    expect((await bbain.getEntity(6)).entity_id).toBe('PJS')
  })

  it('authenticates, refreshes and uses bearer tokens', async () => {
    const anonymous = createClient({ baseUrl: `${s.baseUrl}/` })
    const tokens = await anonymous.authenticate('bblier', 'maarch')
    const bearer = createClient({ baseUrl: s.baseUrl, auth: { token: tokens.token } })
    expect((await bearer.getEntity('DGS')).entity_id).toBe('DGS')
    const fresh = await anonymous.refreshToken(tokens.refreshToken)
    anonymous.useToken(fresh)
    expect((await anonymous.getEntity('DGS')).entity_id).toBe('DGS')
  })

  it('throws typed errors carrying status and message', async () => {
    const client = createClient({ baseUrl: s.baseUrl, auth: { login: 'bbain', password: 'wrong' } })
    const error = await client.getEntity('PJS').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailroomApiError)
    expect(error).toMatchObject({
      status: 401,
      message: 'Authentication Failed',
      body: { errors: 'Authentication Failed' },
    })
    await expect(bbain.getEntity('NOPE')).rejects.toMatchObject({ status: 400, message: 'Entity not found' })
    await expect(createClient({ baseUrl: s.baseUrl }).authenticate('bblier', 'nope')).rejects.toMatchObject({
      status: 401,
    })
  })
})

describe('sdk: records, search, content, status', () => {
  it('creates a record with a file (current form) and finds it by search', async () => {
    const { resId } = await createPdfRecord('Tour de France')
    expect(Number.isInteger(resId)).toBe(true)
    const found = await bbain.search({
      select: 'res_id, subject, status, destination, format',
      clause: `res_id = ${resId}`,
    })
    expect(found).toEqual({
      resources: [{ res_id: resId, subject: 'Tour de France', status: 'NEW', destination: 'PJS', format: 'pdf' }],
      count: 1,
    })
    const withFile = await bbain.search({ select: 'res_id', clause: `res_id = ${resId}`, withFile: true })
    expect(decodeBase64(String(withFile.resources[0]?.fileBase64Content))).toEqual(pdf)
  })

  it('finds a record by chrono with the structured search, and reads its configuration', async () => {
    const { resId } = await createPdfRecord('Piscine municipale')
    const [row] = (await bbain.search({ select: 'alt_identifier', clause: `res_id = ${resId}` })).resources
    const chrono = String(row?.alt_identifier)
    const found = await bbain.searchByCriteria(
      { chrono: { values: chrono } },
      { limit: 5, order: 'chrono', orderDir: 'DESC' },
    )
    expect(found.allResources).toContain(resId)
    expect(found.resources.find((resource) => resource.resId === resId)).toMatchObject({
      chrono,
      subject: 'Piscine municipale',
    })
    await expect(bbain.searchByCriteria({ chrono: { values: 12 } } as never)).rejects.toMatchObject({
      status: 400,
      message: 'Body chrono values must be a non-empty string',
    })
    const { configuration } = await bbain.getSearchConfiguration()
    expect(configuration.listDisplay.subInfos.map((item) => item.value)).toContain('getSenders')
  })

  it('creates a record with the earlier form', async () => {
    const cchaplin = createClient({ baseUrl: s.baseUrl, auth: { login: 'cchaplin', password: 'maarch' } })
    const { resId } = await cchaplin.createRecord({
      status: 'NEW',
      format: 'pdf',
      encodedFile: encodeBase64(pdf),
      type_id: 103,
      category_id: 'incoming',
      subject: 'Ancien',
    })
    expect(Number.isInteger(resId)).toBe(true)
  })

  it('reports create and search errors with their exact messages', async () => {
    await expect(bbain.createRecord({ status: 'NEW' } as never)).rejects.toMatchObject({
      status: 400,
      message: 'Data is not set or empty',
    })
    await expect(bbain.search({ select: '', clause: '1=1' })).rejects.toMatchObject({
      status: 400,
      message: 'Bad Request: select is not valid',
    })
  })

  it('downloads the PDF as bytes, as a stream and as base64, and the original file', async () => {
    const { resId } = await createPdfRecord()
    const bytes = await bbain.getContent(resId)
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-')
    const bare = await bbain.getContent(resId, { mode: 'view', watermark: false })
    expect(bare).toEqual(pdf)
    const streamed = await readAll(await bbain.getContent(resId, { watermark: false, stream: true }))
    expect(streamed).toEqual(pdf)
    const base64 = await bbain.getContent(resId, { mode: 'base64', watermark: false })
    expect(base64).toMatchObject({ originalFormat: 'pdf', mimeType: 'application/pdf', originalCreatorId: 3 })
    expect(decodeBase64(base64.encodedDocument)).toEqual(pdf)

    expect(await bbain.getOriginalContent(resId)).toEqual(pdf)
    expect(await readAll(await bbain.getOriginalContent(resId, { stream: true }))).toEqual(pdf)
    const original = await bbain.getOriginalContent(resId, { mode: 'base64' })
    expect(original).toMatchObject({ extension: 'pdf', mimeType: 'application/pdf' })
    expect(decodeBase64(original.encodedDocument)).toEqual(pdf)

    const version = await bbain.getVersionContent(resId, 1)
    expect(new TextDecoder().decode(decodeBase64(version.encodedDocument).subarray(0, 5))).toBe('%PDF-')
    expect(version.filename).toMatch(/_V1\.pdf$/)
  })

  it('adds versions and a signed PDF, and reads each of them', async () => {
    const { resId } = await createPdfRecord('Versions')
    const second = makePdf({ pages: 3 })
    expect(await bbain.newVersion(resId, { encodedFile: encodeBase64(second), format: 'pdf' })).toEqual({
      resId,
      version: 2,
    })
    expect(await bbain.getOriginalContent(resId)).toEqual(second)
    const v1 = await bbain.getVersionContent(resId, 1)
    expect(v1.filename).toMatch(/_V1\.pdf$/)
    const signed = makePdf({ pages: 1 })
    expect(await bbain.newVersion(resId, { encodedFile: encodeBase64(signed), format: 'pdf', type: 'SIGN' })).toEqual({
      resId,
      version: 2,
    })
    expect(await bbain.getOriginalContent(resId, { signedVersion: true })).toEqual(signed)
    await expect(bbain.getVersionContent(resId, 3)).rejects.toMatchObject({ status: 400, message: 'Incorrect version' })
    await expect(bbain.newVersion(resId, { encodedFile: '', format: 'pdf' })).rejects.toMatchObject({
      status: 400,
      message: 'Body encodedFile is not valid base64',
    })
  })

  it('reports content errors with their status and message', async () => {
    const { resId } = await createPdfRecord()
    const root = createClient({ baseUrl: s.baseUrl, auth: { login: 'superadmin', password: 'superadmin' } })
    await expect(root.getContent(987654321)).rejects.toMatchObject({ status: 400, message: 'Document does not exist' })
    await expect(bbain.getOriginalContent(resId, { signedVersion: 'maybe' as never })).rejects.toMatchObject({
      status: 403,
      message: 'signedVersion param is not a boolean',
    })
    await expect(bbain.getVersionContent(resId, 0)).rejects.toMatchObject({
      status: 400,
      message: 'Parameter version must be greater than 0',
    })
    await expect(bbain.getVersionContent(resId, 1, { type: 'XX' as never })).rejects.toMatchObject({
      status: 400,
      message: 'Parameter type can not be empty and should be PDF, TYPE, NOTE',
    })
    const ddur = createClient({ baseUrl: s.baseUrl, auth: { login: 'ddur', password: 'maarch' } })
    await expect(ddur.getContent(resId)).rejects.toMatchObject({ status: 403, message: 'Document out of perimeter' })
  })

  it('changes the status by resId and by chrono, and reads the history', async () => {
    const { resId } = await createPdfRecord()
    expect(await bbain.updateStatus({ status: 'COU', resId: [resId], historyMessage: 'Pris en charge' })).toEqual({
      success: 'success',
    })
    const [row] = (await bbain.search({ select: 'status, alt_identifier', clause: `res_id = ${resId}` })).resources
    expect(row?.status).toBe('COU')
    expect(await bbain.updateStatus({ status: 'END', chrono: [String(row?.alt_identifier)] })).toEqual({
      success: 'success',
    })
    const { history } = await bbain.getHistory(resId)
    expect(history.map((h) => h.info)).toEqual(expect.arrayContaining(['Pris en charge', 'status update']))
    expect(history[0]).toMatchObject({ eventType: 'UP', login: 'bbain' })
    await expect(bbain.updateStatus({ status: 'NOPE', resId: [resId] })).rejects.toMatchObject({
      status: 400,
      message: 'status not found',
    })
  })
})

describe('sdk: digital safe, health, openapi', () => {
  it('reads the journal with the SERVICE-AUTH cookie of a token', async () => {
    const { resId } = await createPdfRecord('Journal')
    const { token } = await createClient({ baseUrl: s.baseUrl }).authenticate('bbain', 'maarch')
    const journal = await bbain.readJournal(
      SAFE,
      { fromDate: new Date(Date.now() - 3_600_000).toISOString() },
      { cookieToken: token },
    )
    expect(journal).toMatchObject({ originatorOwnerOrgRegNumber: SAFE, operationResult: true })
    const deposit = journal.lifeCycleEvents.find((e) => e.eventInfo.some((i) => i.resId === String(resId)))
    expect(deposit).toMatchObject({ eventType: 'recordsManagement/deposit', objectClass: 'recordsManagement/archive' })
    // A client authenticated by token sends that token as the cookie by default.
    const page = await createClient({ baseUrl: s.baseUrl, auth: { token } }).readJournal(SAFE, { limit: 1 })
    expect(page.lifeCycleEvents).toHaveLength(1)
  })

  it('reports journal errors from the envelope message', async () => {
    const error = await bbain.readJournal(SAFE, {}, { cookieToken: 'forged' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailroomApiError)
    expect(error).toMatchObject({
      status: 401,
      message: 'Missing authentication credential',
      body: { operationResult: false },
    })
    const { token } = await createClient({ baseUrl: s.baseUrl }).authenticate('bbain', 'maarch')
    await expect(bbain.readJournal(SAFE, { fromDate: 'yesterday' }, { cookieToken: token })).rejects.toMatchObject({
      status: 400,
      message: 'Invalid format date',
    })
  })

  it("verifies a safe's chain with the client's own credentials, and reports refusals", async () => {
    await createPdfRecord('Chaîne')
    const verification = await bbain.verifyJournalChain(SAFE)
    expect(verification).toMatchObject({ safe: SAFE, verified: true, pendingEvents: 0, firstBreak: null })
    expect(verification.eventsChecked).toBeGreaterThan(0)
    expect(verification.head?.sequence).toBe(verification.eventsChecked)
    await expect(bbain.verifyJournalChain('NOPE')).rejects.toMatchObject({
      status: 404,
      message: "Organization NOPE doesn't exist",
    })
    // The whole chain again: root users only.
    const superadmin = createClient({ baseUrl: s.baseUrl, auth: { login: 'superadmin', password: 'superadmin' } })
    const full = await superadmin.verifyJournalChain(SAFE, { full: true })
    expect(full).toMatchObject({ safe: SAFE, verified: true, eventsChecked: verification.eventsChecked })
    expect(full.resumedAfter).toBeUndefined()
    await expect(bbain.verifyJournalChain(SAFE, { full: true })).rejects.toMatchObject({ status: 403 })
  })

  it('reads liveness, readiness and the OpenAPI document without credentials', async () => {
    const anonymous = createClient({ baseUrl: s.baseUrl })
    expect(await anonymous.health()).toEqual({ status: 'ok' })
    expect(await anonymous.ready()).toEqual({
      status: 'ready',
      failing: [],
      checks: { database: true, migrations: true, storage: true, shuttingDown: false },
    })
    const document = await anonymous.openapi()
    expect(document.openapi).toBe('3.1.0')
    expect(Object.keys(document.paths)).toContain('/rest/res/list')
  })
})

describe('sdk: transport', () => {
  it('honours abort signals and reports network failures', async () => {
    const client = createClient({ baseUrl: s.baseUrl, auth: { login: 'bbain', password: 'maarch' }, retries: 0 })
    const controller = new AbortController()
    controller.abort()
    await expect(client.getEntity('PJS', { signal: controller.signal })).rejects.toBeInstanceOf(MailroomNetworkError)
    const nowhere = createClient({ baseUrl: 'http://127.0.0.1:9', retries: 1 })
    await expect(nowhere.health()).rejects.toBeInstanceOf(MailroomNetworkError)
  })

  it('times out with a MailroomTimeoutError', async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
    const client = createClient({ baseUrl: s.baseUrl, fetch: hanging, timeoutMs: 50, retries: 0 })
    const error = await client.health().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailroomTimeoutError)
    expect(error).toBeInstanceOf(MailroomNetworkError)
    expect((error as Error).message).toBe('GET /healthz timed out after 50 ms')
  })

  it('retries idempotent reads on 503, never writes', async () => {
    let calls = 0
    const flaky: typeof fetch = async (input, init) => {
      calls++
      if (calls === 1)
        return new Response('{"errors":"Service temporarily unavailable, try again later"}', { status: 503 })
      return fetch(input, init)
    }
    const client = createClient({ baseUrl: s.baseUrl, fetch: flaky, auth: { login: 'bbain', password: 'maarch' } })
    expect((await client.health()).status).toBe('ok')
    expect(calls).toBe(2)
    calls = 0
    await expect(client.updateStatus({ status: 'COU', resId: [1] })).rejects.toMatchObject({
      status: 503,
      message: 'Service temporarily unavailable, try again later',
    })
    expect(calls).toBe(1)
  })

  it('sends the interface headers and the URL-encoded cookie to the digital safe', async () => {
    let seen: Headers | undefined
    let url = ''
    const spy: typeof fetch = async (input, init) => {
      seen = new Headers(init?.headers)
      url = String(input)
      return new Response('{"lifeCycleEvents":[]}', { status: 200 })
    }
    const client = createClient({
      baseUrl: 'http://mailroom.test/base/',
      fetch: spy,
      auth: { login: 'bbain', password: 'maarch' },
    })
    await client.readJournal('ORG 1', { archiveId: 'a/b', limit: 5 }, { cookieToken: 'a b;c' })
    expect(url).toBe('http://mailroom.test/base/digitalSafe/digitalSafe/ORG%201/events?archiveId=a%2Fb&limit=5')
    expect(Object.fromEntries(seen!)).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': 'service',
      cookie: 'SERVICE-AUTH=a%20b%3Bc',
    })
  })

  it('encodes and decodes base64 like Buffer does', () => {
    for (const length of [0, 1, 2, 3, 4, 100_000]) {
      const bytes = new Uint8Array(length).map((_, i) => (i * 7919) % 256)
      const text = encodeBase64(bytes)
      expect(text).toBe(Buffer.from(bytes).toString('base64'))
      expect(decodeBase64(text)).toEqual(bytes)
    }
  })
})
