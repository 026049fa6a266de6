import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  demoAuth,
  expectSameShape,
  insertStandInRecord,
  type MaarchIdMapping,
  readMaarchExchanges,
  replayWithMailroomIds,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

/*
 * POST /rest/notes, GET /rest/resources/{resId}/notes and GET /rest/notes/{id} against what Maarch 20.10 answered
 * (notes-create.json, then notes-read.json, in the recorder's order). The demo stands in for Maarch's sample:
 * record 22 (destination COU: cchaplin's 1=1 only), record 1 (PJS: bbain's too), record 2 (DSI: not bbain's);
 * Maarch's entity PTE, which the demo has not, is played by DSI (no one of bbain, cchaplin or ppetit belongs to it).
 */

let s: TestServer
const resources = new Map<number, number>()
const notes = new Map<number, number>()
let mapping: MaarchIdMapping

const insertRecord = (destination: string) => insertStandInRecord(s.mailroom.db, { destination })

beforeAll(async () => {
  s = await startTestServer()
  resources.set(22, await insertRecord('COU'))
  resources.set(1, await insertRecord('PJS'))
  resources.set(2, await insertRecord('DSI'))
  mapping = { resources, notes, entities: new Map([['PTE', 'DSI']]) }
})
afterAll(async () => s?.close())

const counts = async () => ({
  notes: Number(
    (
      await s.mailroom.db
        .selectFrom('notes')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
  noteEntities: Number(
    (
      await s.mailroom.db
        .selectFrom('note_entities')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
})

describe('notes, as Maarch 20.10 answers them', () => {
  it('POST /rest/notes: the same answers to the recorded requests; refused ones write nothing', async () => {
    for (const exchange of readMaarchExchanges('notes-create.json')) {
      const before = await counts()
      const response = await replayWithMailroomIds(s, exchange, mapping)
      expectSameShape(response, exchange.response)
      const recorded = exchange.response.body as { noteId?: number }
      if (recorded.noteId !== undefined) notes.set(recorded.noteId, response.json.noteId)
      else expect(await counts(), exchange.name).toEqual(before)
    }
    expect(notes.size).toBe(4)
  })

  it('reads them back as 20.10 does: restricted notes only for their author and their entities', async () => {
    for (const exchange of readMaarchExchanges('notes-read.json')) {
      const response = await replayWithMailroomIds(s, exchange, mapping)
      if (exchange.name === 'non-integer note') {
        // 20.10 answers 500 with its stack trace; Mailroom names the parameter (NOTES.md §4).
        expect(exchange.response.status).toBe(500)
        expect(response.status).toBe(400)
        expect(response.json).toEqual({ errors: 'Route id is not an integer' })
        continue
      }
      expectSameShape(response, exchange.response)
      const recordedNotes = (exchange.response.body as { notes?: unknown[] }).notes
      if (recordedNotes) expect(response.json.notes, exchange.name).toHaveLength(recordedNotes.length)
    }
  })

  it('lists the notes newest first, with the restriction and the entity ids of a note', async () => {
    const list = await s.call('GET', `/rest/resources/${resources.get(22)}/notes`, { auth: demoAuth('cchaplin') })
    expect(list.json.notes.map((n: { id: number }) => n.id)).toEqual([notes.get(5), notes.get(3), notes.get(2)])
    expect(list.json.notes[1].entities_restriction).toEqual([
      { short_label: 'PJS', item_id: ['PJS'] },
      { short_label: 'DGS', item_id: ['DGS'] },
    ])
    const one = await s.call('GET', `/rest/notes/${notes.get(3)}`, { auth: demoAuth('cchaplin') })
    expect(one.json).toMatchObject({ identifier: resources.get(22), user_id: 2, entities: ['PJS', 'DGS'] })
  })

  it('writes a history entry on the record and one for the note', async () => {
    const history = await s.call('GET', `/rest/resources/${resources.get(22)}/history`, {
      auth: demoAuth('superadmin'),
    })
    expect(history.json.history.filter((h: { info: string }) => h.info === 'Annotation ajoutée')).toHaveLength(3)
    const noteRows = await s.mailroom.db
      .selectFrom('history')
      .select('info')
      .where('table_name', '=', 'notes')
      .where('record_id', '=', String(notes.get(2)))
      .execute()
    expect(noteRows).toEqual([{ info: `Annotation ajoutée (${notes.get(2)})` }])
  })

  it('refuses other bad input with a 4xx and writes nothing', async () => {
    const before = await counts()
    const cchaplin = demoAuth('cchaplin')
    const resId = resources.get(22)!
    const cases: [unknown, number, string][] = [
      [{ resId, value: 'x', entities: [12] }, 400, 'Body entities : one or more entities do not exist'],
      [
        { resId, value: 'x', entities: ['PJS', 'x'.repeat(60)] },
        400,
        'Body entities : one or more entities do not exist',
      ],
      [{ resId, value: 'x', entities: { a: 'PJS' } }, 400, 'Body entities is not an array'],
      [{ resId: -1, value: 'x' }, 400, 'Body resId is empty or not an integer'],
      [{ resId: 1.5, value: 'x' }, 400, 'Body resId is empty or not an integer'],
      [{ resId: [resId], value: 'x' }, 400, 'Body resId is empty or not an integer'],
      [{ resId, value: '' }, 400, 'Body value is empty or not a string'],
      [{ resId, value: ['x'] }, 400, 'Body value is empty or not a string'],
    ]
    for (const [body, status, errors] of cases) {
      const response = await s.call('POST', '/rest/notes', { auth: cchaplin, body })
      expect([response.status, response.json], JSON.stringify(body)).toEqual([status, { errors }])
    }
    const notJson = await s.call('POST', '/rest/notes', {
      auth: cchaplin,
      rawBody: '{"resId":',
      headers: { 'content-type': 'application/json' },
    })
    expect(notJson.status).toBe(400)
    expect(await counts()).toEqual(before)
  })

  it('answers 403 for the notes of a record out of perimeter whatever the limit, and a clear 400 or 403 for bad ids', async () => {
    const bbain = demoAuth('bbain')
    expect((await s.call('GET', `/rest/resources/${resources.get(2)}/notes?limit=abc`, { auth: bbain })).json).toEqual({
      errors: 'Document out of perimeter',
    })
    expect((await s.call('GET', '/rest/resources/0/notes', { auth: bbain })).json).toEqual({
      errors: 'Route resId is not an integer',
    })
    expect((await s.call('GET', '/rest/notes/0', { auth: bbain })).json).toEqual({
      errors: 'Route id is not an integer',
    })
    const limited = await s.call('GET', `/rest/resources/${resources.get(22)}/notes?limit=0`, {
      auth: demoAuth('cchaplin'),
    })
    expect(limited.json.notes).toHaveLength(3)
  })
})
