import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedBaskets } from '../../../testing/src/fixtures/seed-baskets.js'
import {
  addModelCustomField,
  demoAuth,
  insertStandInRecord,
  maarchExchange,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

/*
 * Running actions on a basket's letters and their locks, as Maarch 20.10's ResourceListController does. The demo's
 * bbain (id 3, group AGENT = 4, entity PJS) and ppetit (id 5, group COURRIER = 3) each have "Mes courriers" (the
 * letters destined to PJS with status NEW); bbain alone has "Courriers clos" (status END).
 */

let s: TestServer
let basket: number
let closedBasket: number
let unlinkedBasket: number
const action: Record<string, number> = {}
const bbain = demoAuth('bbain')
const ppetit = demoAuth('ppetit')
const BBAIN = 3
const PPETIT = 5
const AGENT = 4
const COURRIER = 3

const list = (user = BBAIN, group = AGENT, id = basket) =>
  `/rest/resourcesList/users/${user}/groups/${group}/baskets/${id}`
const run = (name: string, body: unknown, auth = bbain, user = BBAIN, group = AGENT) =>
  s.call('PUT', `${list(user, group)}/actions/${action[name]}`, { auth, body })

async function insertAction(
  name: string,
  values: { label: string; status?: string; component: string | null; history?: boolean; parameters?: object },
  links: { groupId: string; basketId: string; whereClause?: string; isDefault?: boolean }[],
) {
  const row = await s.mailroom.db
    .insertInto('actions')
    .values({
      label_action: values.label,
      id_status: values.status ?? '_NOSTATUS_',
      component: values.component,
      history: values.history === false ? 'N' : 'Y',
      parameters: JSON.stringify(values.parameters ?? {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  action[name] = row.id
  for (const link of links)
    await s.mailroom.db
      .insertInto('actions_groupbaskets')
      .values({
        id_action: row.id,
        group_id: link.groupId,
        basket_id: link.basketId,
        where_clause: link.whereClause ?? null,
        default_action_list: link.isDefault ? 'Y' : 'N',
      })
      .execute()
}

const letter = (values: { status?: string; initiator?: string } = {}) =>
  insertStandInRecord(s.mailroom.db, { destination: 'PJS', ...values })

const record = (resId: number) =>
  s.mailroom.db.selectFrom('res_letterbox').selectAll().where('res_id', '=', resId).executeTakeFirstOrThrow()

const actionHistory = (resId: number) =>
  s.mailroom.db
    .selectFrom('history')
    .select(['event_type', 'event_id', 'info', 'user_id', 'id_module', 'table_name'])
    .where('record_id', '=', String(resId))
    .where('event_type', 'like', 'ACTION#%')
    .execute()

async function countRows() {
  const n = async (
    table:
      | 'history'
      | 'notes'
      | 'listinstance'
      | 'listinstance_history'
      | 'listinstance_history_details'
      | 'res_mark_as_read'
      | 'basket_persistent_mode',
  ) =>
    Number(
      (
        await s.mailroom.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const statuses = await s.mailroom.db
    .selectFrom('res_letterbox')
    .select(['res_id', 'status', 'closing_date', 'locker_user_id'])
    .orderBy('res_id')
    .execute()
  return {
    history: await n('history'),
    notes: await n('notes'),
    listinstance: await n('listinstance'),
    listsReplaced: await n('listinstance_history'),
    itemsReplaced: await n('listinstance_history_details'),
    read: await n('res_mark_as_read'),
    persistence: await n('basket_persistent_mode'),
    statuses,
  }
}

beforeAll(async () => {
  s = await startTestServer()
  const ids = await seedBaskets(s.mailroom.db, [
    {
      basketId: 'MyBasket',
      name: 'Mes courriers',
      clause: "destination = 'PJS' and status = 'NEW'",
      groups: [{ groupId: 'AGENT' }, { groupId: 'COURRIER' }],
    },
    { basketId: 'ClosedBasket', name: 'Courriers clos', clause: "status = 'END'", groups: [{ groupId: 'AGENT' }] },
    { basketId: 'Unlinked', name: 'Sans groupe', clause: '1=1' },
  ])
  basket = ids.get('MyBasket')!
  closedBasket = ids.get('ClosedBasket')!
  unlinkedBasket = ids.get('Unlinked')!
  const both = [
    { groupId: 'AGENT', basketId: 'MyBasket' },
    { groupId: 'COURRIER', basketId: 'MyBasket' },
  ]
  await insertAction('close', { label: 'Clôturer', status: 'END', component: 'closeMailAction' }, [
    { ...both[0]!, isDefault: true },
    both[1]!,
  ])
  await insertAction('confirm', { label: 'Prendre en charge', status: 'COU', component: 'confirmAction' }, [
    { ...both[0]!, whereClause: "subject = 'urgent'" },
  ])
  await insertAction('read', { label: 'Marquer comme lu', component: 'resMarkAsReadAction' }, both)
  await insertAction('quiet', { label: 'Sans trace', component: 'noConfirmAction', history: false }, both)
  await insertAction(
    'closeWithNotes',
    { label: 'Clôturer avec annotation', status: 'END', component: 'closeMailWithAttachmentsOrNotesAction' },
    both,
  )
  await insertAction('departure', { label: 'Date de départ', component: 'updateDepartureDateAction' }, both)
  await insertAction('keep', { label: 'Garder', component: 'enabledBasketPersistenceAction' }, both)
  await insertAction('unkeep', { label: 'Ne plus garder', component: 'disabledBasketPersistenceAction' }, both)
  await insertAction('redirect', { label: 'Rediriger', component: 'redirectAction' }, both)
  await insertAction('initiator', { label: 'Vers l’initiateur', component: 'redirectInitiatorEntityAction' }, both)
  await insertAction('sign', { label: 'Parapheur', status: 'ESIG', component: 'sendSignatureBookAction' }, both)
  await insertAction('frobnicate', { label: 'Inconnue', status: 'END', component: 'frobnicateAction' }, both)
  await insertAction('none', { label: 'Sans composant', status: 'END', component: null }, both)
  await insertAction('unlinked', { label: 'Non liée', status: 'END', component: 'closeMailAction' }, [])
  await s.mailroom.db
    .insertInto('actions_categories')
    .values({ action_id: action.read!, category_id: 'incoming' })
    .execute()
})
afterAll(async () => s?.close())

describe('PUT …/actions/{actionId}', () => {
  it('closes a letter: status, closing date, lock cleared, note, one history line as 20.10 words it', async () => {
    const resId = await letter()
    await s.mailroom.db
      .updateTable('res_letterbox')
      .set({ locker_user_id: BBAIN, locker_time: new Date(Date.now() + 60_000) })
      .where('res_id', '=', resId)
      .execute()
    const response = await run('close', { resources: [resId], note: { content: 'Réponse envoyée', entities: ['PJS'] } })
    expect(response.status).toBe(204)
    expect(response.text).toBe('')
    const after = await record(resId)
    expect(after.status).toBe('END')
    expect(after.closing_date).not.toBeNull()
    expect(after.locker_user_id).toBeNull()
    expect(after.locker_time).toBeNull()
    expect(await actionHistory(resId)).toEqual([
      {
        event_type: `ACTION#${action.close}`,
        event_id: String(action.close),
        info: 'Mes courriers : Clôturer',
        user_id: BBAIN,
        id_module: 'resource',
        table_name: 'res_letterbox',
      },
    ])
    const notes = await s.call('GET', `/rest/resources/${resId}/notes`, { auth: bbain })
    expect(notes.json.notes.map((n: { value: string }) => n.value)).toEqual(['Réponse envoyée'])
    const noteId = notes.json.notes[0].id
    // The note's rows are those POST /rest/notes writes.
    const noteHistory = await s.mailroom.db
      .selectFrom('history')
      .select(['table_name', 'record_id', 'event_id', 'info'])
      .where('event_id', 'in', ['noteadd', 'resourceModification'])
      .where((eb) => eb.or([eb('record_id', '=', String(noteId)), eb('record_id', '=', String(resId))]))
      .orderBy('id')
      .execute()
    expect(noteHistory).toEqual([
      { table_name: 'notes', record_id: String(noteId), event_id: 'noteadd', info: `Annotation ajoutée (${noteId})` },
      {
        table_name: 'res_letterbox',
        record_id: String(resId),
        event_id: 'resourceModification',
        info: 'Annotation ajoutée',
      },
    ])
  })

  it('takes the web client’s string ids and its empty note and data, as the recorded journey sends them', async () => {
    const resId = await letter()
    const response = await run('close', { resources: [String(resId)], note: { content: '', entities: [] }, data: [] })
    expect(response.status).toBe(204)
    expect((await record(resId)).status).toBe('END')
    expect(await s.mailroom.db.selectFrom('notes').select('id').where('identifier', '=', resId).execute()).toHaveLength(
      0,
    )
  })

  it('_NOSTATUS_ leaves the status; an action without history writes no line', async () => {
    const resId = await letter()
    expect((await run('quiet', { resources: [resId] })).status).toBe(204)
    expect((await record(resId)).status).toBe('NEW')
    expect(await actionHistory(resId)).toEqual([])
  })

  it('refuses, in 20.10’s status and words, and writes nothing', async () => {
    const resId = await letter()
    const outside = await letter({ status: 'COU' })
    const body = { resources: [resId] }
    const cases: [string, () => Promise<{ status: number; json: unknown }>, number, string][] = [
      ['no resources', () => run('close', {}), 400, 'Data resources is empty or not an array'],
      ['empty resources', () => run('close', { resources: [] }), 400, 'Data resources is empty or not an array'],
      [
        'resources not an array',
        () => run('close', { resources: 'x' }),
        400,
        'Data resources is empty or not an array',
      ],
      [
        'a letter id that is no id',
        () => run('close', { resources: [resId, 'x'] }),
        400,
        'Data resources[1] is not an integer greater than 0',
      ],
      [
        'a huge letter id',
        () => run('close', { resources: [2 ** 64] }),
        400,
        'Data resources[0] is not an integer greater than 0',
      ],
      [
        'more than 500 letters',
        () => run('close', { resources: Array.from({ length: 501 }, (_, i) => i + 1) }),
        400,
        'Data resources holds more than 500 elements; split the batch into several calls',
      ],
      [
        'a note that is no object',
        () => run('close', { ...body, note: 'x' }),
        400,
        'Data note is not an object with a string content and an array of entity identifiers',
      ],
      [
        'a NUL in the note',
        () => run('close', { ...body, note: { content: 'a\u0000b' } }),
        400,
        'Request contains a NUL character, which cannot be stored',
      ],
      [
        'deeply nested data',
        () =>
          s.call('PUT', `${list()}/actions/${action.close}`, {
            auth: bbain,
            rawBody: `{"resources":[${resId}],"data":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
            headers: { 'content-type': 'application/json' },
          }),
        400,
        'Body nests arrays and objects deeper than 64 levels',
      ],
      [
        'a note for an unknown entity',
        () => run('close', { ...body, note: { content: 'x', entities: ['NOPE'] } }),
        400,
        'Body entities : one or more entities do not exist',
      ],
      ['data that is no object', () => run('close', { ...body, data: 'x' }), 400, 'Data data is not an object'],
      [
        'unknown basket',
        () => s.call('PUT', `${list(BBAIN, AGENT, 999_999)}/actions/${action.close}`, { auth: bbain, body }),
        403,
        'Group or basket does not exist',
      ],
      [
        'huge basket id',
        () => s.call('PUT', `${list(BBAIN, AGENT, 2 ** 40)}/actions/${action.close}`, { auth: bbain, body }),
        403,
        'Group or basket does not exist',
      ],
      ['unknown group', () => run('close', body, bbain, BBAIN, 999), 403, 'Group or basket does not exist'],
      ['a colleague’s basket', () => run('close', body, bbain, PPETIT, COURRIER), 403, 'Basket out of perimeter'],
      [
        'a group the user is not in',
        () => run('close', body, bbain, BBAIN, COURRIER),
        403,
        'Group is not linked to this user',
      ],
      [
        'a basket the group is not given',
        () => s.call('PUT', `${list(BBAIN, AGENT, unlinkedBasket)}/actions/${action.close}`, { auth: bbain, body }),
        403,
        'Group is not linked to this basket',
      ],
      [
        'an action not linked to the basket',
        () => run('unlinked', body),
        400,
        'Action is not linked to this group basket',
      ],
      [
        'an unknown action',
        () => s.call('PUT', `${list()}/actions/999999`, { auth: bbain, body }),
        400,
        'Action is not linked to this group basket',
      ],
      ['a component Mailroom does not run', () => run('sign', body), 400, 'Action component not supported'],
      ['a component 20.10 does not know', () => run('frobnicate', body), 400, 'Action method does not exist'],
      ['an action without component', () => run('none', body), 400, 'Action component does not exist'],
      [
        'a letter outside the basket',
        () => run('close', { resources: [resId, outside] }),
        403,
        'Resources out of perimeter',
      ],
      [
        'a letter that does not exist',
        () => run('close', { resources: [resId, 999_999_999] }),
        403,
        'Resources out of perimeter',
      ],
      [
        'redirect without a list',
        () => run('redirect', { ...body, data: { listInstances: 'x' } }),
        400,
        'Data listInstances is not an array of items with item_id, item_type and item_mode',
      ],
      [
        'redirect to an unknown item type',
        () =>
          run('redirect', {
            ...body,
            data: { listInstances: [{ item_id: 'x', item_type: 'team', item_mode: 'dest' }] },
          }),
        400,
        'Data listInstances is not an array of items with item_id, item_type and item_mode',
      ],
    ]
    for (const [name, call, status, message] of cases) {
      const before = await countRows()
      const response = await call()
      expect([name, response.status, response.json]).toEqual([name, status, { errors: message }])
      expect(await countRows(), name).toEqual(before)
    }
  })

  it('refuses a lent basket to its owner and serves it to the colleague it is lent to', async () => {
    const resId = await letter()
    await s.mailroom.db
      .insertInto('redirected_baskets')
      .values({ owner_user_id: BBAIN, actual_user_id: PPETIT, basket_id: 'ClosedBasket', group_id: AGENT })
      .execute()
    const own = await s.call('PUT', `${list(BBAIN, AGENT, closedBasket)}/lock`, {
      auth: bbain,
      body: { resources: [resId] },
    })
    expect([own.status, own.json]).toEqual([403, { errors: 'Basket out of perimeter (redirected)' }])
    await run('close', { resources: [resId] })
    const lent = await s.call('PUT', `${list(BBAIN, AGENT, closedBasket)}/locked`, {
      auth: ppetit,
      body: { resources: [resId] },
    })
    expect([lent.status, lent.json]).toEqual([
      200,
      { countLockedResources: 0, lockers: [], resourcesToProcess: [resId] },
    ])
    await s.mailroom.db.deleteFrom('redirected_baskets').execute()
  })

  it('two clerks closing one letter at once: one wins, the other is told, one history line', async () => {
    for (let round = 0; round < 5; round++) {
      const resId = await letter()
      const answers = await Promise.all([
        run('close', { resources: [resId] }),
        run('close', { resources: [resId] }, ppetit, PPETIT, COURRIER),
      ])
      expect(answers.filter((a) => a.status === 204)).toHaveLength(1)
      const loser = answers.find((a) => a.status !== 204)!
      expect([
        { status: 403, json: { errors: 'Resources out of perimeter' } },
        { status: 200, json: { errors: [`Resource ${resId} is no longer in the basket`] } },
      ]).toContainEqual({ status: loser.status, json: loser.json })
      expect(await actionHistory(resId)).toHaveLength(1)
    }
  })

  it('a failure between the status and the history leaves neither', async () => {
    const resId = await letter()
    await sql`create function refuse_action_history() returns trigger language plpgsql as $$
      begin raise exception 'history refused'; end $$`.execute(s.mailroom.db)
    await sql`create trigger refuse_action_history before insert on history for each row
      when (new.event_type like 'ACTION#%') execute function refuse_action_history()`.execute(s.mailroom.db)
    try {
      const before = await countRows()
      const response = await run('close', { resources: [resId] })
      expect(response.status).toBe(500)
      expect(await countRows()).toEqual(before)
      expect((await record(resId)).status).toBe('NEW')
    } finally {
      await sql`drop trigger refuse_action_history on history`.execute(s.mailroom.db)
      await sql`drop function refuse_action_history()`.execute(s.mailroom.db)
    }
  })
})

describe('an action on many letters', () => {
  /**
   * Counts the statements writing each table in the transaction that wrote notes while `run` runs (statement-level
   * triggers; the action is the only writer of notes, background work such as the words' queue is left out).
   */
  async function writeStatements(run: () => Promise<unknown>) {
    const db = s.mailroom.db
    await sql`create table action_statements (tbl text, op text, tx bigint)`.execute(db)
    await sql`create function count_action_statement() returns trigger language plpgsql as $$
      begin insert into action_statements values (tg_table_name, tg_op, txid_current()); return null; end $$`.execute(
      db,
    )
    const tables = ['res_letterbox', 'history', 'notes', 'note_entities']
    for (const table of tables)
      await sql`create trigger count_action_statement after insert or update or delete on ${sql.table(table)}
        for each statement execute function count_action_statement()`.execute(db)
    try {
      await run()
      const { rows } = await sql<{ tbl: string; op: string; n: number }>`select tbl, op, count(*)::int as n
        from action_statements where tx in (select tx from action_statements where tbl = 'notes')
        group by tbl, op order by tbl, op`.execute(db)
      return rows.map((row) => `${row.tbl} ${row.op} ${row.n}`)
    } finally {
      for (const table of tables) await sql`drop trigger count_action_statement on ${sql.table(table)}`.execute(db)
      await sql`drop function count_action_statement()`.execute(db)
      await sql`drop table action_statements`.execute(db)
    }
  }

  it('writes each kind of row in one statement for every letter, each letter’s history as one letter’s', async () => {
    const letters = [await letter(), await letter(), await letter(), await letter()]
    const note = { content: 'Traité en lot', entities: ['PJS'] }
    const statements = await writeStatements(async () => {
      expect((await run('close', { resources: letters, note })).status).toBe(204)
    })
    // The status with the locks cleared, then the closing date kept once; the notes, their entities; the history:
    // as many statements for four letters as for one.
    expect(statements).toEqual([
      'history INSERT 1',
      'note_entities INSERT 1',
      'notes INSERT 1',
      'res_letterbox UPDATE 2',
    ])
    for (const resId of letters) {
      const after = await record(resId)
      expect([after.status, after.closing_date === null, after.modification_date]).toEqual([
        'END',
        false,
        (await record(letters[0]!)).modification_date,
      ])
    }
    const notes = await s.mailroom.db
      .selectFrom('notes as n')
      .innerJoin('note_entities as ne', 'ne.note_id', 'n.id')
      .select(['n.id', 'n.identifier', 'n.note_text', 'ne.item_id'])
      .where('n.identifier', 'in', letters)
      .orderBy('n.identifier')
      .execute()
    expect(notes.map((n) => [n.identifier, n.note_text, n.item_id])).toEqual(
      letters.map((resId) => [resId, 'Traité en lot', 'PJS']),
    )
    // Letter by letter, in the request's order: its note's lines, then the action's.
    const lines = await s.mailroom.db
      .selectFrom('history')
      .select(['table_name', 'record_id', 'event_id'])
      .where((eb) =>
        eb.or([
          eb.and([eb('table_name', '=', 'res_letterbox'), eb('record_id', 'in', letters.map(String))]),
          eb.and([
            eb('table_name', '=', 'notes'),
            eb(
              'record_id',
              'in',
              notes.map((n) => String(n.id)),
            ),
          ]),
        ]),
      )
      .orderBy('id')
      .execute()
    expect(lines.map((line) => `${line.table_name} ${line.record_id} ${line.event_id}`)).toEqual(
      letters.flatMap((resId) => {
        const noteId = notes.find((n) => n.identifier === resId)!.id
        return [
          `notes ${noteId} noteadd`,
          `res_letterbox ${resId} resourceModification`,
          `res_letterbox ${resId} ${action.close}`,
        ]
      }),
    )
  })

  it('leaves a letter the component refuses as it was and acts on the others', async () => {
    const [annotated, bare, alsoBare] = [await letter(), await letter(), await letter()]
    await s.mailroom.db
      .insertInto('notes')
      .values({ identifier: annotated!, user_id: BBAIN, note_text: 'Vu' })
      .execute()
    const refused = await run('closeWithNotes', { resources: [bare, annotated, alsoBare] })
    expect([refused.status, refused.json]).toEqual([
      200,
      { errors: ['No attachments or notes', 'No attachments or notes'] },
    ])
    expect([(await record(annotated!)).status, (await record(bare!)).status, (await record(alsoBare!)).status]).toEqual(
      ['END', 'NEW', 'NEW'],
    )
    expect(
      [await actionHistory(annotated!), await actionHistory(bare!), await actionHistory(alsoBare!)].map(
        (h) => h.length,
      ),
    ).toEqual([1, 0, 0])
  })

  it('a redirect refused for its letters leaves every one of them as it was', async () => {
    const letters = [await letter(), await letter()]
    const before = await countRows()
    const refused = await run('redirect', {
      resources: letters,
      data: { listInstances: [{ item_id: 'nobody', item_type: 'user_id', item_mode: 'dest' }] },
    })
    expect([refused.status, refused.json]).toEqual([200, { errors: ['User not found', 'User not found'] }])
    expect(await countRows()).toEqual(before)
    const redirected = await run('redirect', {
      resources: letters,
      data: { destination: 'PJS', listInstances: [{ item_id: BBAIN, item_type: 'user_id', item_mode: 'dest' }] },
    })
    expect(redirected.status).toBe(204)
    for (const resId of letters) expect((await record(resId)).dest_user).toBe(BBAIN)
  })

  it('a failure on the last letter leaves every letter as it was', async () => {
    const letters = [await letter(), await letter(), await letter()]
    const last = String(letters.at(-1))
    await sql`create function refuse_last_letter() returns trigger language plpgsql as $$
      begin raise exception 'history refused'; end $$`.execute(s.mailroom.db)
    await sql`create trigger refuse_last_letter before insert on history for each row
      when (new.record_id = ${sql.lit(last)}) execute function refuse_last_letter()`.execute(s.mailroom.db)
    try {
      const before = await countRows()
      expect((await run('close', { resources: letters })).status).toBe(500)
      expect(await countRows()).toEqual(before)
    } finally {
      await sql`drop trigger refuse_last_letter on history`.execute(s.mailroom.db)
      await sql`drop function refuse_last_letter()`.execute(s.mailroom.db)
    }
  })

  it('two clerks acting on the same letters in opposite orders take turns, one history line a letter', async () => {
    for (let round = 0; round < 3; round++) {
      const letters = [await letter(), await letter(), await letter()]
      const answers = await Promise.all([
        run('close', { resources: letters }),
        run('close', { resources: [...letters].reverse() }, ppetit, PPETIT, COURRIER),
      ])
      expect(answers.filter((a) => a.status === 204)).toHaveLength(1)
      for (const resId of letters) {
        expect((await record(resId)).status).toBe('END')
        expect(await actionHistory(resId)).toHaveLength(1)
      }
    }
  })
})

describe('the components', () => {
  it('closeMailWithAttachmentsOrNotesAction: refused without a note or attachment, closes with one', async () => {
    const resId = await letter()
    const before = await countRows()
    const refused = await run('closeWithNotes', { resources: [resId] })
    expect([refused.status, refused.json]).toEqual([200, { errors: ['No attachments or notes'] }])
    expect(await countRows()).toEqual(before)
    expect((await run('closeWithNotes', { resources: [resId], note: { content: 'Vu' } })).status).toBe(204)
    const after = await record(resId)
    expect([after.status, after.closing_date === null]).toEqual(['END', false])
  })

  it('updateDepartureDateAction sets the departure date once', async () => {
    const resId = await letter()
    expect((await run('departure', { resources: [resId] })).status).toBe(204)
    const first = (await record(resId)).departure_date
    expect(first).not.toBeNull()
    expect((await run('departure', { resources: [resId] })).status).toBe(204)
    expect((await record(resId)).departure_date).toEqual(first)
  })

  it('the basket persistence pair writes the clerk’s one row', async () => {
    const resId = await letter()
    const rows = () =>
      s.mailroom.db.selectFrom('basket_persistent_mode').selectAll().where('res_id', '=', resId).execute()
    expect((await run('keep', { resources: [resId] })).status).toBe(204)
    expect(await rows()).toEqual([{ res_id: resId, user_id: BBAIN, is_persistent: 'Y' }])
    expect((await run('unkeep', { resources: [resId] })).status).toBe(204)
    expect(await rows()).toEqual([{ res_id: resId, user_id: BBAIN, is_persistent: 'N' }])
  })

  it('resMarkAsReadAction marks the letter read in the basket, once', async () => {
    const resId = await letter()
    const rows = () => s.mailroom.db.selectFrom('res_mark_as_read').selectAll().where('res_id', '=', resId).execute()
    expect((await run('read', { resources: [resId], data: { basketId: basket } })).status).toBe(204)
    expect((await run('read', { resources: [resId] })).status).toBe(204)
    expect(await rows()).toEqual([{ res_id: resId, user_id: BBAIN, basket_id: 'MyBasket' }])
    // Another basket, by serial id (the web client) or by code.
    expect((await run('read', { resources: [resId], data: { basketId: closedBasket } })).status).toBe(204)
    expect((await run('read', { resources: [resId], data: { basketId: 'Unlinked' } })).status).toBe(204)
    expect((await rows()).map((row) => row.basket_id).sort()).toEqual(['ClosedBasket', 'MyBasket', 'Unlinked'])
  })

  it('redirectAction replaces the list, the assignee and the destination, as the history says', async () => {
    const resId = await letter()
    await s.mailroom.db
      .insertInto('listinstance')
      .values([
        { res_id: resId, item_id: BBAIN, item_type: 'user_id', item_mode: 'dest', difflist_type: 'entity_id' },
        { res_id: resId, item_id: 4, item_type: 'user_id', item_mode: 'cc', difflist_type: 'entity_id' },
      ])
      .execute()
    await s.mailroom.db.updateTable('res_letterbox').set({ dest_user: BBAIN }).where('res_id', '=', resId).execute()
    const items = () =>
      s.mailroom.db
        .selectFrom('listinstance')
        .select(['item_id', 'item_type', 'item_mode'])
        .where('res_id', '=', resId)
        .orderBy('sequence')
        .execute()
    // Only the assignee changes: the copy stays.
    const onlyDest = await run('redirect', {
      resources: [resId],
      data: { listInstances: [{ item_id: 'ppetit', item_type: 'user_id', item_mode: 'dest' }], onlyRedirectDest: true },
    })
    expect(onlyDest.status).toBe(204)
    expect(await items()).toEqual([
      { item_id: 4, item_type: 'user_id', item_mode: 'cc' },
      { item_id: PPETIT, item_type: 'user_id', item_mode: 'dest' },
    ])
    const after = await record(resId)
    // ppetit is not in PJS: the letter goes to her primary entity.
    expect([after.dest_user, after.destination]).toEqual([PPETIT, 'COU'])
    const lines = await s.mailroom.db
      .selectFrom('history')
      .select(['event_id', 'info', 'id_module'])
      .where('record_id', '=', String(resId))
      .where('id_module', '=', 'listinstance')
      .orderBy('id')
      .execute()
    expect(lines).toEqual([
      { event_id: 'diffdestuser', info: 'Destinataire de la liste de diffusion mis à jour', id_module: 'listinstance' },
      { event_id: 'diffcopy', info: 'Liste de diffusion mise à jour', id_module: 'listinstance' },
    ])
  })

  it('redirectAction: a new list replaces the old one; an unknown user leaves the letter as it was', async () => {
    const resId = await letter()
    await s.mailroom.db
      .insertInto('listinstance')
      .values({ res_id: resId, item_id: 4, item_type: 'user_id', item_mode: 'cc', difflist_type: 'entity_id' })
      .execute()
    const before = await countRows()
    const unknown = await run('redirect', {
      resources: [resId],
      data: { listInstances: [{ item_id: 'nobody', item_type: 'user_id', item_mode: 'dest' }] },
    })
    expect([unknown.status, unknown.json]).toEqual([200, { errors: ['User not found'] }])
    expect(await countRows()).toEqual(before)
    const noDest = await run('redirect', {
      resources: [resId],
      data: { listInstances: [{ item_id: 'PJS', item_type: 'entity_id', item_mode: 'cc' }] },
    })
    expect([noDest.status, noDest.json]).toEqual([200, { errors: ['Dest is missing'] }])
    const replaced = await run('redirect', {
      resources: [resId],
      data: { destination: 'PJS', listInstances: [{ item_id: BBAIN, item_type: 'user_id', item_mode: 'dest' }] },
    })
    expect(replaced.status).toBe(204)
    const list = await s.mailroom.db
      .selectFrom('listinstance')
      .select(['item_id', 'item_mode'])
      .where('res_id', '=', resId)
      .execute()
    expect(list).toEqual([{ item_id: BBAIN, item_mode: 'dest' }])
    expect([(await record(resId)).dest_user, (await record(resId)).destination]).toEqual([BBAIN, 'PJS'])
  })

  it('redirectAction keeps the list it replaces in listinstance_history, and the list read says so', async () => {
    const resId = await letter()
    await s.mailroom.db
      .insertInto('listinstance')
      .values([
        { res_id: resId, item_id: PPETIT, item_type: 'user_id', item_mode: 'dest', difflist_type: 'entity_id' },
        { res_id: resId, sequence: 1, item_id: 6, item_type: 'entity_id', item_mode: 'cc', difflist_type: 'entity_id' },
      ])
      .execute()
    await s.mailroom.db
      .updateTable('listinstance')
      .set({ added_by_user: 1, viewed: 2 })
      .where('res_id', '=', resId)
      .execute()
    const read = async () => (await s.call('GET', `/rest/resources/${resId}/listInstance`, { auth: bbain })).json
    expect((await read()).hasHistory).toBe(false)
    const toBbain = { destination: 'PJS', listInstances: [{ item_id: BBAIN, item_type: 'user_id', item_mode: 'dest' }] }
    expect((await run('redirect', { resources: [resId], data: toBbain })).status).toBe(204)
    const changes = () =>
      s.mailroom.db
        .selectFrom('listinstance_history')
        .select(['listinstance_history_id', 'coll_id', 'user_id', 'updated_date'])
        .where('res_id', '=', resId)
        .orderBy('listinstance_history_id')
        .execute()
    const details = (historyId: number) =>
      s.mailroom.db
        .selectFrom('listinstance_history_details')
        .select(['res_id', 'sequence', 'item_id', 'item_type', 'item_mode', 'added_by_user', 'viewed'])
        .select(['difflist_type', 'process_date', 'coll_id', 'visible', 'listinstance_type', 'signatory'])
        .where('listinstance_history_id', '=', historyId)
        .orderBy('sequence')
        .execute()
    const [first] = await changes()
    expect(first).toMatchObject({ coll_id: 'letterbox_coll', user_id: BBAIN })
    expect(Date.now() - new Date(first!.updated_date).getTime()).toBeLessThan(60_000)
    // The list as it was, as 20.10 copies it: its items, who added them; viewed 0, no process date.
    const item = { res_id: resId, added_by_user: 1, viewed: 0, difflist_type: 'entity_id', process_date: null }
    const row = { ...item, coll_id: 'letterbox_coll', visible: 'Y', listinstance_type: 'DOC', signatory: false }
    expect(await details(Number(first!.listinstance_history_id))).toEqual([
      { ...row, sequence: 0, item_id: PPETIT, item_type: 'user_id', item_mode: 'dest' },
      { ...row, sequence: 1, item_id: 6, item_type: 'entity_id', item_mode: 'cc' },
    ])
    expect((await read()).hasHistory).toBe(true)
    // A second redirect keeps the list the first one wrote.
    const toPpetit = { listInstances: [{ item_id: 'ppetit', item_type: 'user_id', item_mode: 'dest' }] }
    expect((await run('redirect', { resources: [resId], data: toPpetit })).status).toBe(204)
    const [, second] = await changes()
    expect(await details(Number(second!.listinstance_history_id))).toEqual([
      { ...row, added_by_user: BBAIN, sequence: 0, item_id: BBAIN, item_type: 'user_id', item_mode: 'dest' },
    ])
  })

  it('redirectAction on a letter without a list writes the change alone, as 20.10: no earlier list to show', async () => {
    const resId = await letter()
    const toBbain = { destination: 'PJS', listInstances: [{ item_id: BBAIN, item_type: 'user_id', item_mode: 'dest' }] }
    expect((await run('redirect', { resources: [resId], data: toBbain })).status).toBe(204)
    const rows = await s.mailroom.db
      .selectFrom('listinstance_history')
      .select('user_id')
      .where('res_id', '=', resId)
      .execute()
    expect(rows).toEqual([{ user_id: BBAIN }])
    const read = await s.call('GET', `/rest/resources/${resId}/listInstance`, { auth: bbain })
    expect([read.status, read.json.hasHistory]).toEqual([200, false])
  })

  it('redirectInitiatorEntityAction sends the letter to its initiator’s entity', async () => {
    const resId = await letter({ initiator: 'DGS' })
    await s.mailroom.db.updateTable('res_letterbox').set({ dest_user: BBAIN }).where('res_id', '=', resId).execute()
    expect((await run('initiator', { resources: [resId] })).status).toBe(204)
    const after = await record(resId)
    expect([after.destination, after.dest_user]).toEqual(['DGS', null])
  })

  it('redirectInitiatorEntityAction gives the letter its initiator’s template assignee, the former one in copy', async () => {
    const db = s.mailroom.db
    const { id: template } = await db
      .insertInto('list_templates')
      .values({ title: 'DRH', type: 'diffusionList', entity_id: 4 })
      .returning('id')
      .executeTakeFirstOrThrow()
    // ddur (6) is DRH's assignee; a suspended one before him is passed over.
    await db
      .insertInto('list_templates_items')
      .values([
        { list_template_id: template, item_id: 6, item_type: 'user', item_mode: 'dest', sequence: 1 },
        { list_template_id: template, item_id: PPETIT, item_type: 'user', item_mode: 'dest', sequence: 0 },
      ])
      .execute()
    await db.updateTable('users').set({ status: 'SPD' }).where('id', '=', PPETIT).execute()
    try {
      const resId = await letter({ initiator: 'DRH' })
      await db.updateTable('res_letterbox').set({ dest_user: BBAIN }).where('res_id', '=', resId).execute()
      await db
        .insertInto('listinstance')
        .values({
          res_id: resId,
          sequence: 0,
          item_id: BBAIN,
          item_type: 'user_id',
          item_mode: 'dest',
          difflist_type: 'entity_id',
        })
        .execute()
      expect((await run('initiator', { resources: [resId] })).status).toBe(204)
      const after = await record(resId)
      expect([after.destination, after.dest_user]).toEqual(['DRH', 6])
      const list = await db
        .selectFrom('listinstance')
        .select(['item_id', 'item_mode', 'added_by_user', 'sequence'])
        .where('res_id', '=', resId)
        .orderBy('listinstance_id')
        .execute()
      expect(list).toEqual([
        { item_id: BBAIN, item_mode: 'cc', added_by_user: null, sequence: 0 },
        { item_id: 6, item_mode: 'dest', added_by_user: BBAIN, sequence: 0 },
      ])
    } finally {
      await db.updateTable('users').set({ status: 'OK' }).where('id', '=', PPETIT).execute()
      await db.deleteFrom('list_templates').where('id', '=', template).execute()
    }
  })
})

describe('locks', () => {
  it('a letter locked by a colleague: she sees who holds it, and her action leaves it alone', async () => {
    const resId = await letter()
    const lock = await s.call('PUT', `${list()}/lock`, { auth: bbain, body: { resources: [String(resId)] } })
    expect(lock.status).toBe(204)
    const held = await record(resId)
    expect(held.locker_user_id).toBe(BBAIN)
    const seconds = (new Date(held.locker_time!).getTime() - Date.now()) / 1000
    expect(seconds).toBeGreaterThan(50)
    expect(seconds).toBeLessThanOrEqual(61)
    const seen = await s.call('PUT', `${list(PPETIT, COURRIER)}/locked`, { auth: ppetit, body: { resources: [resId] } })
    expect(seen.json).toEqual({ countLockedResources: 1, lockers: ['Barbara BAIN'], resourcesToProcess: [] })
    const own = await s.call('PUT', `${list()}/locked`, { auth: bbain, body: { resources: [resId] } })
    expect(own.json).toEqual({ countLockedResources: 0, lockers: [], resourcesToProcess: [resId] })
    const before = await countRows()
    const acted = await run('close', { resources: [resId] }, ppetit, PPETIT, COURRIER)
    expect([acted.status, acted.json]).toEqual([200, { success: 'No resource to process' }])
    // Her lock and unlock take nothing from bbain.
    expect(
      (await s.call('PUT', `${list(PPETIT, COURRIER)}/lock`, { auth: ppetit, body: { resources: [resId] } })).status,
    ).toBe(204)
    expect(
      (await s.call('PUT', `${list(PPETIT, COURRIER)}/unlock`, { auth: ppetit, body: { resources: [resId] } })).status,
    ).toBe(204)
    expect(await countRows()).toEqual(before)
    expect((await s.call('PUT', `${list()}/unlock`, { auth: bbain, body: { resources: [resId] } })).status).toBe(204)
    expect((await record(resId)).locker_user_id).toBeNull()
  })

  it('an expired lock holds nothing', async () => {
    const resId = await letter()
    await s.mailroom.db
      .updateTable('res_letterbox')
      .set({ locker_user_id: BBAIN, locker_time: new Date(Date.now() - 1000) })
      .where('res_id', '=', resId)
      .execute()
    const seen = await s.call('PUT', `${list(PPETIT, COURRIER)}/locked`, { auth: ppetit, body: { resources: [resId] } })
    expect(seen.json).toEqual({ countLockedResources: 0, lockers: [], resourcesToProcess: [resId] })
    expect(
      (await s.call('PUT', `${list(PPETIT, COURRIER)}/lock`, { auth: ppetit, body: { resources: [resId] } })).status,
    ).toBe(204)
    expect((await record(resId)).locker_user_id).toBe(PPETIT)
  })

  it('refuses letters outside the basket and a malformed body, writing nothing', async () => {
    const outside = await letter({ status: 'COU' })
    for (const path of ['locked', 'lock', 'unlock']) {
      const out = await s.call('PUT', `${list()}/${path}`, { auth: bbain, body: { resources: [outside] } })
      expect([out.status, out.json]).toEqual([403, { errors: 'Resources out of perimeter' }])
      const bad = await s.call('PUT', `${list()}/${path}`, { auth: bbain, body: { resources: {} } })
      expect([bad.status, bad.json]).toEqual([400, { errors: 'Data resources is empty or not an array' }])
    }
    expect((await record(outside)).locker_user_id).toBeNull()
  })
})

describe('GET …/actions and checkCloseWithFieldsAction', () => {
  it('lists the basket’s actions, the default first; on a letter’s page only those whose condition it meets', async () => {
    const inList = await s.call('GET', `${list()}/actions`, { auth: bbain })
    expect(inList.status).toBe(200)
    expect(inList.json.actions[0]).toEqual({ id: action.close, component: 'closeMailAction', label: 'Clôturer' })
    expect(inList.json.actions.map((a: { label: string }) => a.label)).toContain('Prendre en charge')
    const plain = await letter()
    const page = await s.call('GET', `${list()}/actions?resId=${plain}`, { auth: bbain })
    expect(page.json.actions.map((a: { label: string }) => a.label)).not.toContain('Prendre en charge')
    const read = page.json.actions.find((a: { id: number }) => a.id === action.read)
    expect(read.categories).toEqual(['incoming'])
    const close = page.json.actions.find((a: { id: number }) => a.id === action.close)
    expect(close.categories).toEqual(['incoming', 'outgoing', 'internal', 'ged_doc', 'registeredMail'])
    const urgent = await insertStandInRecord(s.mailroom.db, { destination: 'PJS', subject: 'urgent' })
    const urgentPage = await s.call('GET', `${list()}/actions?resId=${urgent}`, { auth: bbain })
    expect(urgentPage.json.actions.map((a: { label: string }) => a.label)).toContain('Prendre en charge')
    const refused = await s.call('GET', `${list(BBAIN, COURRIER)}/actions`, { auth: bbain })
    expect([refused.status, refused.json]).toEqual([403, { errors: 'Group is not linked to this user' }])
  })

  it('refuses a resId that is not an integer greater than 0 where a condition is tested (20.10 crashed), lists for "0"', async () => {
    for (const bad of ['abc', '-1', '1.5', '99999999999999999999', '1%00', "1' or '1'='1"]) {
      const r = await s.call('GET', `${list()}/actions?resId=${encodeURIComponent(bad)}`, { auth: bbain })
      expect([bad, r.status, r.json]).toEqual([bad, 400, { errors: 'Query resId is not an integer greater than 0' }])
    }
    const zero = await s.call('GET', `${list()}/actions?resId=0`, { auth: bbain })
    const inList = await s.call('GET', `${list()}/actions`, { auth: bbain })
    expect([zero.status, zero.json]).toEqual([200, inList.json])
  })

  it('getRedirect offers the entities and people of the redirect choices, keywords read for the basket’s owner', async () => {
    await s.mailroom.db
      .insertInto('groupbasket_redirect')
      .values([
        {
          group_id: 'AGENT',
          basket_id: 'MyBasket',
          action_id: action.redirect!,
          entity_id: 'DGS',
          redirect_mode: 'ENTITY',
        },
        {
          group_id: 'AGENT',
          basket_id: 'MyBasket',
          action_id: action.redirect!,
          keyword: 'MY_ENTITIES',
          redirect_mode: 'ENTITY',
        },
        {
          group_id: 'AGENT',
          basket_id: 'MyBasket',
          action_id: action.redirect!,
          keyword: 'MY_PRIMARY_ENTITY',
          redirect_mode: 'USERS',
        },
        {
          group_id: 'AGENT',
          basket_id: 'MyBasket',
          action_id: action.redirect!,
          keyword: 'NOT_A_KEYWORD',
          redirect_mode: 'USERS',
        },
      ])
      .execute()
    const response = await s.call('GET', `${list()}/actions/${action.redirect}/getRedirect`, { auth: bbain })
    expect(response.status).toBe(200)
    const allowed = response.json.entities
      .filter((e: { allowed: boolean }) => e.allowed)
      .map((e: { id: string }) => e.id)
    expect(allowed.sort()).toEqual(['DGS', 'PJS'])
    const pjs = response.json.entities.find((e: { id: string }) => e.id === 'PJS')
    expect(pjs).toMatchObject({
      entity_id: 'PJS',
      parent: pjs.parent_entity_id,
      icon: 'fa fa-sitemap',
      state: { opened: true, selected: true },
    })
    // A root entity, as 20.10 answers it: parent_entity_id "" (never null), listed before the others.
    expect(response.json.entities[0]).toMatchObject({ parent_entity_id: '', parent: '#', icon: 'fa fa-building' })
    expect(response.json.entities.filter((e: { parent_entity_id: unknown }) => e.parent_entity_id === null)).toEqual([])
    const closed = response.json.entities.find((e: { allowed: boolean }) => !e.allowed)
    expect(closed.state).toEqual({ opened: false, disabled: true })
    expect(response.json.users).toEqual([
      {
        id: BBAIN,
        user_id: 'bbain',
        firstname: 'Barbara',
        lastname: 'BAIN',
        labelToDisplay: 'Barbara BAIN',
        descriptionToDisplay: pjs.entity_label,
      },
    ])
    expect(response.json.keepDestForRedirection).toBe(false)
    // An action without redirect choices offers no one.
    const none = await s.call('GET', `${list()}/actions/${action.close}/getRedirect`, { auth: bbain })
    expect([none.json.users, none.json.entities.some((e: { allowed: boolean }) => e.allowed)]).toEqual([[], false])
    const refused = await s.call('GET', `${list(PPETIT, COURRIER)}/actions/${action.redirect}/getRedirect`, {
      auth: bbain,
    })
    expect([refused.status, refused.json]).toEqual([403, { errors: 'Basket out of perimeter' }])
  })

  it('checkCloseWithFieldsAction answers as the recorded journey did', async () => {
    const resId = await letter()
    const check = await s.call('POST', `${list()}/actions/${action.close}/checkCloseWithFieldsAction`, {
      auth: bbain,
      body: { resources: [resId] },
    })
    expect([check.status, check.json]).toEqual([200, { errors: [], success: [resId] }])
    const empty = await s.call('POST', `${list()}/actions/${action.close}/checkCloseWithFieldsAction`, {
      auth: bbain,
      body: { resources: [] },
    })
    expect([empty.status, empty.json]).toEqual([400, { errors: 'Body resources is empty or not an array' }])
    const unknown = await s.call('POST', `${list()}/actions/999999/checkCloseWithFieldsAction`, {
      auth: bbain,
      body: { resources: [resId] },
    })
    expect([unknown.status, unknown.json]).toEqual([400, { errors: 'Action does not exist' }])
  })
})

describe("an action's required custom fields (parameters.requiredFields)", () => {
  let fieldId: number
  let requiring: number
  beforeAll(async () => {
    const db = s.mailroom.db
    fieldId = await addModelCustomField(db, { label: 'Référence client', type: 'string' })
    // The second field is required by the action but not shown by the letters' model: never asked for.
    const row = await db
      .insertInto('actions')
      .values({
        label_action: 'Clôturer (référence exigée)',
        id_status: 'END',
        component: 'closeMailAction',
        history: 'Y',
        parameters: JSON.stringify({
          requiredFields: [`indexingCustomField_${fieldId}`, 'indexingCustomField_999999'],
        }),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    requiring = row.id
    await db
      .insertInto('actions_groupbaskets')
      .values({ id_action: requiring, group_id: 'AGENT', basket_id: 'MyBasket', default_action_list: 'N' })
      .execute()
  })
  const withReference = async (value: unknown) => {
    const resId = await letter()
    await s.mailroom.db
      .updateTable('res_letterbox')
      .set({ custom_fields: JSON.stringify({ [fieldId]: value }) })
      .where('res_id', '=', resId)
      .execute()
    return resId
  }
  const check = (resources: unknown) =>
    s.call('POST', `${list()}/actions/${requiring}/checkCloseWithFieldsAction`, { auth: bbain, body: { resources } })

  it('checkCloseWithFieldsAction names each letter whose model shows a required field it leaves empty', async () => {
    const filled = await withReference('CLI-42')
    const blank = await withReference('')
    const zero = await withReference('0') // PHP's empty(): "0" is empty too
    const without = await letter()
    await s.mailroom.db
      .updateTable('res_letterbox')
      .set({ alt_identifier: 'MAARCH/2026A/77' })
      .where('res_id', '=', without)
      .execute()
    const answer = await check([filled, blank, zero, without, filled])
    expect(answer.status).toBe(200)
    expect(answer.json.success).toEqual([filled])
    expect(answer.json.errors).toHaveLength(3)
    expect(answer.json.errors).toContainEqual({ chrono: 'MAARCH/2026A/77', fields: 'Référence client' })
    for (const error of answer.json.errors) expect(error.fields).toBe('Référence client')
  })

  it('checkCloseWithFieldsAction leaves out a letter locked by a colleague, in the basket or not, as 20.10', async () => {
    // In bbain's perimeter (PJS) but not in the basket (status COU), locked by ppetit.
    const outside = await letter({ status: 'COU' })
    const inside = await withReference('')
    await s.mailroom.db
      .updateTable('res_letterbox')
      .set({ locker_user_id: PPETIT, locker_time: new Date(Date.now() + 60_000) })
      .where('res_id', 'in', [outside, inside])
      .execute()
    const answer = await check([outside, inside])
    expect([answer.status, answer.json]).toEqual([200, { errors: [], success: [] }])
  })

  it('checkCloseWithFieldsAction refuses hostile letters as 20.10, never a 500', async () => {
    for (const [resources, status, errors] of [
      [[], 400, 'Body resources is empty or not an array'],
      ['1', 400, 'Body resources is empty or not an array'],
      [[99_999_999], 403, 'Document out of perimeter'],
    ] as const) {
      const answer = await check(resources)
      expect([JSON.stringify(resources), answer.status, answer.json]).toEqual([
        JSON.stringify(resources),
        status,
        { errors },
      ])
    }
    for (const resources of [['1\u0000'], ['99999999999999999999999'], [{ deep: [[[[1]]]] }]]) {
      const answer = await check(resources)
      expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(answer.status).toBeLessThan(500)
    }
  })

  it('setAction runs the action anyway, as 20.10 does (its check reads an undefined $parameters: never applied)', async () => {
    const direct = await withReference('')
    const requiringRun = await s.call('PUT', `${list()}/actions/${requiring}`, {
      auth: bbain,
      body: { resources: [direct] },
    })
    expect(requiringRun.status).toBe(204)
    expect((await record(direct)).status).toBe('END')
    expect((await actionHistory(direct)).map((line) => line.info)).toEqual([
      'Mes courriers : Clôturer (référence exigée)',
    ])
  })
})

describe('the refusals and answers the real Maarch 20.10 recorded (baskets-*.json)', () => {
  it('answers each in the same status and words, on the demo’s stand-ins for the sample’s ids', async () => {
    const resId = await letter()
    const outside = await letter({ status: 'COU' })
    const note = { content: '', entities: [] }
    const put = (path: string, body: unknown, auth = bbain) => s.call('PUT', path, { auth, body })
    const cases: [string, string, () => ReturnType<TestServer['call']>][] = [
      [
        'baskets-refusals.json',
        'unknown basket',
        () => put(`${list(BBAIN, AGENT, 99_999)}/actions/${action.quiet}`, { resources: [resId], note }),
      ],
      [
        'baskets-refusals.json',
        'unknown group',
        () => put(`${list(BBAIN, 99_999)}/actions/${action.quiet}`, { resources: [resId], note }),
      ],
      [
        'baskets-refusals.json',
        'unknown user',
        () => put(`${list(99_999)}/actions/${action.quiet}`, { resources: [resId], note }),
      ],
      [
        'baskets-refusals.json',
        "another clerk's userId (ccharles, same group)",
        () => put(`${list(PPETIT, COURRIER)}/actions/${action.quiet}`, { resources: [resId], note }),
      ],
      [
        'baskets-refusals.json',
        'a group the user is not in (RESPONSABLE)',
        () => put(`${list(BBAIN, COURRIER)}/actions/${action.quiet}`, { resources: [resId], note }),
      ],
      [
        'baskets-refusals.json',
        'a basket not linked to the group (ValidationBasket)',
        () => put(`${list(BBAIN, AGENT, unlinkedBasket)}/actions/${action.quiet}`, { resources: [resId], note }),
      ],
      ['baskets-refusals.json', 'unknown action', () => put(`${list()}/actions/99999`, { resources: [resId], note })],
      [
        'baskets-refusals.json',
        'an action not linked to the basket (22)',
        () => put(`${list()}/actions/${action.unlinked}`, { resources: [resId], note }),
      ],
      [
        'baskets-refusals.json',
        'a letter not in the basket (sample 1, bbain is dest but ATT_MP)',
        () => put(`${list()}/actions/${action.quiet}`, { resources: [resId, outside], note }),
      ],
      [
        'baskets-refusals.json',
        'an unknown letter',
        () => put(`${list()}/actions/${action.quiet}`, { resources: [99_999_999] }),
      ],
      [
        'baskets-refusals.json',
        'resources not an array',
        () => put(`${list()}/actions/${action.quiet}`, { resources: resId }),
      ],
      ['baskets-refusals.json', 'resources empty', () => put(`${list()}/actions/${action.quiet}`, { resources: [] })],
      ['baskets-refusals.json', 'resources missing', () => put(`${list()}/actions/${action.quiet}`, { note })],
      ['baskets-refusals.json', 'no body', () => put(`${list()}/actions/${action.quiet}`, undefined)],
      [
        'baskets-refusals.json',
        'actions of a group the user is not in',
        () => s.call('GET', `${list(BBAIN, COURRIER)}/actions`, { auth: bbain }),
      ],
      [
        'baskets-actions.json',
        'checkCloseWithFieldsAction 20, resources empty',
        () =>
          s.call('POST', `${list()}/actions/${action.close}/checkCloseWithFieldsAction`, {
            auth: bbain,
            body: { resources: [] },
          }),
      ],
      [
        'baskets-actions.json',
        'checkCloseWithFieldsAction, an unknown action',
        () =>
          s.call('POST', `${list()}/actions/99999/checkCloseWithFieldsAction`, {
            auth: bbain,
            body: { resources: [resId] },
          }),
      ],
      ['baskets-locks.json', 'bbain: locked? (free)', () => put(`${list()}/locked`, { resources: [resId] })],
      ['baskets-locks.json', 'bbain: lock', () => put(`${list()}/lock`, { resources: [String(resId)] })],
      ['baskets-locks.json', 'bbain: locked? (by herself)', () => put(`${list()}/locked`, { resources: [resId] })],
      [
        'baskets-locks.json',
        'ppetit: lock (locked by bbain: left as is)',
        () => put(`${list(PPETIT, COURRIER)}/lock`, { resources: [resId] }, ppetit),
      ],
      [
        'baskets-locks.json',
        'ppetit: unlock (locked by bbain: left as is)',
        () => put(`${list(PPETIT, COURRIER)}/unlock`, { resources: [resId] }, ppetit),
      ],
      [
        'baskets-locks.json',
        "ppetit: action 19 on bbain's locked letter",
        () => put(`${list(PPETIT, COURRIER)}/actions/${action.quiet}`, { resources: [resId] }, ppetit),
      ],
      ['baskets-locks.json', 'bbain: unlock', () => put(`${list()}/unlock`, { resources: [resId] })],
      ['baskets-locks.json', 'bbain: locked, resources empty', () => put(`${list()}/locked`, { resources: [] })],
      [
        'baskets-locks.json',
        'bbain: locked, resources a string',
        () => put(`${list()}/locked`, { resources: String(resId) }),
      ],
      [
        'baskets-locks.json',
        'bbain: locked, a letter not in the basket',
        () => put(`${list()}/locked`, { resources: [resId, outside] }),
      ],
      [
        'baskets-locks.json',
        'bbain: lock, a letter not in the basket',
        () => put(`${list()}/lock`, { resources: [outside] }),
      ],
      [
        'baskets-locks.json',
        'bbain: unlock, resources not an array',
        () => put(`${list()}/unlock`, { resources: 'x' }),
      ],
      [
        'baskets-locks.json',
        'bbain: lock in a basket of another group',
        () => put(`${list(BBAIN, COURRIER)}/lock`, { resources: [resId] }),
      ],
    ]
    for (const [file, name, call] of cases) {
      const recorded = maarchExchange(file, name).response
      const response = await call()
      const body = response.text === '' ? null : response.json
      // The recorded letter ids are the sample's; the demo's stand in for them.
      const expected = JSON.parse(JSON.stringify(recorded.body).replaceAll(/\[(3[0-9])\]/g, `[${resId}]`))
      expect([name, response.status, body]).toEqual([name, recorded.status, expected])
    }
  })
})
