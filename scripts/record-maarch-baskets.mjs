// Records what a running Maarch Courrier 20.10 answers for baskets, actions and locks (issue 53), as test fixtures:
// the clerks' homes and basket lists, the lock routes between two clerks, every action component Mailroom runs
// (with the letter's rows in the database after it), and listControl's refusals. Called by
// record-maarch-answers.mjs with `--only=baskets`, against a fresh instance (see the fixtures' README.md).
import { execFileSync } from 'node:child_process'

// The sample's clerks (users.id), their groups (usergroups.id) and the baskets (baskets.id) used below. They are
// the serial ids of a fresh database loaded from the publisher's sample; the recorder checks them before recording.
export const sampleIds = {
  users: { ppetit: 10, ccharles: 16, ddaull: 18, bbain: 19, bblier: 21, cchaplin: 24 },
  groups: { COURRIER: 1, AGENT: 2, RESP_COURRIER: 3, RESPONSABLE: 4, ADMINISTRATEUR_N1: 5, WEBSERVICE: 13 },
  baskets: {
    QualificationBasket: 1,
    EenvBasket: 3,
    MyBasket: 4,
    CopyMailBasket: 5,
    ValidationBasket: 12,
    DepartmentBasket: 15,
    ParafBasket: 16,
    SendToSignatoryBook: 18,
  },
  entities: { VILLE: 1, DGS: 3, PJS: 6, PE: 7, PTE: 10, DSG: 12, COU: 13 },
}

const clerks = ['bbain', 'ppetit', 'bblier', 'ccharles', 'ddaull']

// Actions the sample does not link to a clerk's basket, added (by SQL, as an administrator would through the
// administration pages) so that every component Mailroom runs is recorded once. Their ids come from the sequence.
const addedActions = [
  ['Clôturer (pièce jointe ou note)', 'END', 'closeMailWithAttachmentsOrNotesAction', 'Y'],
  ["Renvoyer à l'entité initiatrice", 'NEW', 'redirectInitiatorEntityAction', 'Y'],
  ['Acter la date de départ', '_NOSTATUS_', 'updateDepartureDateAction', 'Y'],
  ['Mettre en attente sans confirmation', 'STDBY', 'noConfirmAction', 'Y'],
  ['Action sans historique', 'COU', 'confirmAction', 'N'],
]

/** A psql client on Maarch's database: `query(sql)` answers the first column of the first row, parsed as JSON. */
function psql(database) {
  const run = (sql) =>
    execFileSync(
      'psql',
      ['-h', '127.0.0.1', '-U', 'postgres', '-d', database, '-Atq', '-v', 'ON_ERROR_STOP=1', '-c', sql],
      {
        encoding: 'utf8',
      },
    ).trim()
  return { run, json: (sql) => JSON.parse(run(sql) || 'null') }
}

/** The letter's rows an action may change, as they are in 20.10's database (recorded with the exchange). */
function letterState(db, resId) {
  const id = Number(resId)
  if (!Number.isInteger(id)) return null
  return db.json(`select json_build_object(
    'res_letterbox', (select row_to_json(r) from (select res_id, status, closing_date, departure_date, destination,
        dest_user, initiator, locker_user_id, locker_time, modification_date from res_letterbox where res_id = ${id}) r),
    'listinstance', (select coalesce(json_agg(l order by l.listinstance_id), '[]') from (select listinstance_id,
        sequence, item_id, item_type, item_mode, added_by_user, viewed, difflist_type, process_date from listinstance
        where res_id = ${id}) l),
    'res_mark_as_read', (select coalesce(json_agg(m), '[]') from res_mark_as_read m where res_id = ${id}),
    'basket_persistent_mode', (select coalesce(json_agg(p), '[]') from basket_persistent_mode p where res_id = ${id}),
    'notes', (select coalesce(json_agg(n order by n.id), '[]') from (select id, user_id, note_text, creation_date
        from notes where identifier = ${id}) n),
    'history', (select coalesce(json_agg(h order by h.id), '[]') from (select id, table_name, record_id, event_type,
        user_id, event_date, info, id_module, event_id from history where table_name = 'res_letterbox'
        and record_id = '${id}') h))`)
}

export async function recordBaskets({ call, tinyPdf, database }) {
  const db = psql(database)
  const { users, groups, baskets, entities } = sampleIds

  // The ids above are those of a fresh sample database: refuse to record against anything else.
  const actual = db.json(`select json_build_object(
    'users', (select json_object_agg(user_id, id) from users where user_id in (${Object.keys(users)
      .map((u) => `'${u}'`)
      .join(',')})),
    'groups', (select json_object_agg(group_id, id) from usergroups where group_id in (${Object.keys(groups)
      .map((g) => `'${g}'`)
      .join(',')})),
    'baskets', (select json_object_agg(basket_id, id) from baskets where basket_id in (${Object.keys(baskets)
      .map((b) => `'${b}'`)
      .join(',')})),
    'entities', (select json_object_agg(entity_id, id) from entities where entity_id in (${Object.keys(entities)
      .map((e) => `'${e}'`)
      .join(',')})),
    'letters', (select count(*) from res_letterbox))`)
  for (const kind of ['users', 'groups', 'baskets', 'entities']) {
    for (const [name, id] of Object.entries(sampleIds[kind])) {
      if (actual[kind][name] !== id) throw new Error(`${kind} ${name} is ${actual[kind][name]}, expected ${id}`)
    }
  }
  if (actual.letters !== 20) throw new Error(`the database has ${actual.letters} letters: start from a fresh sample`)

  const added = {}
  for (const [label, status, component, history] of addedActions) {
    const id = Number(
      db.run(`insert into actions (keyword, label_action, id_status, component, history, parameters)
        values ('', '${label.replace(/'/g, "''")}', '${status}', '${component}', '${history}', '{}') returning id`),
    )
    added[component + (history === 'N' ? 'WithoutHistory' : '')] = id
    db.run(`insert into actions_groupbaskets (id_action, where_clause, group_id, basket_id, used_in_basketlist,
      used_in_action_page, default_action_list) values (${id}, '', 'AGENT', 'MyBasket', 'Y', 'Y', 'N')`)
  }

  // The basket persistence pair exists in the sample (524, 525) but is linked to no basket: linked the same way.
  for (const id of [524, 525]) {
    db.run(`insert into actions_groupbaskets (id_action, where_clause, group_id, basket_id, used_in_basketlist,
      used_in_action_page, default_action_list) values (${id}, '', 'AGENT', 'MyBasket', 'N', 'Y', 'N')`)
  }

  // ---- letters: filed by the web-service user, as the capture client does, into bbain's and ccharles's baskets.
  const letters = {}
  const file = async (key, subject, diffusionList, extra = {}) => {
    const created = await call('baskets-letters', `letter "${key}"`, 'cchaplin', 'POST', '/resources', {
      body: {
        encodedFile: tinyPdf(subject),
        format: 'pdf',
        status: 'NEW',
        doctype: 101,
        modelId: 1,
        typist: users.cchaplin,
        subject,
        destination: entities.PJS,
        priority: 'poiuytre1357nbvc',
        diffusionList,
        ...extra,
      },
    })
    if (!Number.isInteger(created.body?.resId))
      throw new Error(`letter ${key} was refused: ${JSON.stringify(created.body)}`)
    letters[key] = created.body.resId
    return letters[key]
  }
  const toBbain = [{ id: users.bbain, type: 'user', mode: 'dest' }]
  for (const key of [
    'close',
    'confirm',
    'redirectEntity',
    'redirectUser',
    'redirectUserKeep',
    'initiator',
    'initiatorSet',
  ]) {
    await file(key, `Lettre pour bbain (${key})`, toBbain, key === 'initiatorSet' ? { initiator: entities.VILLE } : {})
  }
  for (const key of [
    'closeWithNote',
    'departure',
    'noConfirm',
    'withoutHistory',
    'locks',
    'unsupported',
    'persistence',
    'race',
  ]) {
    await file(key, `Lettre pour bbain (${key})`, toBbain)
  }
  await file('copy', 'Lettre pour ccharles, bbain en copie', [
    { id: users.ccharles, type: 'user', mode: 'dest' },
    { id: users.bbain, type: 'user', mode: 'cc' },
    { id: entities.DSG, type: 'entity', mode: 'cc' },
  ])
  await file('urgent', 'Lettre urgente pour bbain', toBbain, { priority: 'poiuytre1379nbvc', doctype: 1202 })
  await call('baskets-letters', 'the letters in the database', 'cchaplin', 'GET', `/resources/${letters.close}`)

  // A folder of ppetit's holding two letters, for the `folders` filter.
  const folder = await call('baskets-letters', 'a folder of ppetit', 'ppetit', 'POST', '/folders', {
    body: { label: 'Dossier du recorder' },
  })
  const folderId = folder.body?.folder
  await call('baskets-letters', 'two letters into the folder', 'ppetit', 'POST', `/folders/${folderId}/resources`, {
    body: { resources: [letters.close, 17] },
  })

  const ids = {
    recordedAt: new Date().toISOString(),
    ...sampleIds,
    addedActions: added,
    sampleActions: {
      redirectAction: 1,
      confirmActionTraiter: 19,
      closeMailAction: 20,
      resMarkAsReadAction: 114,
      sendToParallelOpinion: 36,
      sendSignatureBookAction: 414,
      createAcknowledgementReceiptsAction: 400,
      sendExternalSignatoryBookAction: 527,
      enabledBasketPersistenceAction: 524,
      disabledBasketPersistenceAction: 525,
    },
    letters,
    folder: folderId,
  }

  // ---- homes, profiles and every basket of every clerk.
  const listsOf = {}
  for (const user of clerks) {
    const home = await call('baskets-home', `home of ${user}`, user, 'GET', '/home')
    await call('baskets-home', `last resources of ${user}`, user, 'GET', '/home/lastRessources')
    await call('baskets-home', `profile of ${user}`, user, 'GET', '/currentUser/profile')
    listsOf[user] = (home.body?.regroupedBaskets ?? []).flatMap((group) =>
      group.baskets.map((basket) => ({ group: group.groupSerialId, basket: basket.id, name: basket.basket_id })),
    )
  }
  const route = (user, group, basket) => `/resourcesList/users/${users[user]}/groups/${group}/baskets/${basket}`
  const counts = {}
  for (const user of clerks) {
    counts[user] = {}
    for (const { group, basket, name } of listsOf[user]) {
      const list = await call(
        'baskets-lists',
        `${user}: ${name} (group ${group})`,
        user,
        'GET',
        route(user, group, basket),
        {
          query: { limit: 10, offset: 0 },
        },
      )
      counts[user][`${group}/${name}`] = list.body?.count
      await call(
        'baskets-filters',
        `${user}: ${name} (group ${group})`,
        user,
        'GET',
        `${route(user, group, basket)}/filters`,
      )
      await call(
        'baskets-actions-list',
        `${user}: ${name} (group ${group}), list`,
        user,
        'GET',
        `${route(user, group, basket)}/actions`,
      )
      const first = list.body?.allResources?.[0]
      if (first !== undefined) {
        await call(
          'baskets-actions-list',
          `${user}: ${name} (group ${group}), letter ${first}`,
          user,
          'GET',
          `${route(user, group, basket)}/actions`,
          {
            query: { resId: first },
          },
        )
      }
    }
  }
  ids.countsBeforeActions = counts

  // ---- paging, order, search and filters, on ppetit's "Courriers de ma direction" (every letter of the city).
  const department = route('ppetit', groups.RESPONSABLE, baskets.DepartmentBasket)
  const variants = [
    ['page 2 of 5', { limit: 5, offset: 5 }],
    ['no limit nor offset', {}],
    ['non-numeric limit and offset', { limit: 'abc', offset: 'x' }],
    ['order by subject desc', { limit: 10, offset: 0, order: 'subject desc' }],
    ['order by alt_identifier asc', { limit: 10, offset: 0, order: 'alt_identifier asc' }],
    ['order by priority desc', { limit: 10, offset: 0, order: 'priority desc' }],
    ['order by dest_user asc', { limit: 10, offset: 0, order: 'dest_user asc' }],
    ['order by an unknown column', { limit: 10, offset: 0, order: 'nothing desc' }],
    ['search a word of the subject', { limit: 10, offset: 0, search: 'creche' }],
    ['search accented, any case', { limit: 10, offset: 0, search: 'PÉTITION' }],
    ['search in quotes (exact, case-sensitive)', { limit: 10, offset: 0, search: '"Demande"' }],
    ['search of one character (ignored)', { limit: 10, offset: 0, search: 'd' }],
    ['filter priorities', { limit: 10, offset: 0, priorities: 'poiuytre1379nbvc' }],
    ['filter priorities empty (priority is null)', { limit: 10, offset: 0, priorities: '' }],
    ['filter priorities with an empty item (or null)', { limit: 10, offset: 0, priorities: 'poiuytre1379nbvc,' }],
    ['filter categories', { limit: 10, offset: 0, categories: 'outgoing' }],
    ['filter categories empty', { limit: 10, offset: 0, categories: '' }],
    ['filter entities', { limit: 10, offset: 0, entities: 'PJS,PE' }],
    ['filter entities empty', { limit: 10, offset: 0, entities: '' }],
    ['filter entities with a leading comma', { limit: 10, offset: 0, entities: ',PTE' }],
    ['filter entitiesChildren', { limit: 10, offset: 0, entitiesChildren: 'PJS' }],
    ['filter statuses', { limit: 10, offset: 0, statuses: 'NEW,INIT' }],
    ['filter doctypes', { limit: 10, offset: 0, doctypes: '307,1202' }],
    ['filter folders', { limit: 10, offset: 0, folders: String(folderId) }],
    ['filter folders unknown', { limit: 10, offset: 0, folders: '99999' }],
    ['filter delayed', { limit: 10, offset: 0, delayed: 'true' }],
    ['filter delayed false', { limit: 10, offset: 0, delayed: 'false' }],
    [
      'filters combined',
      { limit: 10, offset: 0, entities: 'PJS', statuses: 'NEW', search: 'bbain', order: 'subject asc' },
    ],
  ]
  for (const [name, query] of variants) {
    await call('baskets-list-queries', `ppetit department: ${name}`, 'ppetit', 'GET', department, { query })
  }
  await call(
    'baskets-list-queries',
    'bbain MyBasket: search "urgente"',
    'bbain',
    'GET',
    route('bbain', groups.AGENT, baskets.MyBasket),
    {
      query: { limit: 10, offset: 0, search: 'urgente' },
    },
  )
  await call(
    'baskets-list-queries',
    'ppetit department filters with a query (ignored)',
    'ppetit',
    'GET',
    `${department}/filters`,
    {
      query: { entities: 'PJS' },
    },
  )

  // ---- isAllowed
  for (const [user, resId, name] of [
    ['bbain', letters.close, 'in a basket of bbain'],
    ['bbain', 1, 'sample letter 1 (bbain is its dest, PJS)'],
    ['bbain', 3, 'sample letter 3 (DGS: outside perimeter)'],
    ['bbain', letters.copy, 'in copy (CopyMailBasket)'],
    ['ccharles', letters.close, 'letter of PJS seen by ccharles (PTE)'],
    ['ddaull', letters.close, 'ddaull (COURRIER)'],
    ['bbain', 99999, 'unknown letter'],
    ['bbain', 'abc', 'non-integer id'],
  ]) {
    await call('baskets-is-allowed', `${user}: ${name}`, user, 'GET', `/resources/${resId}/isAllowed`)
  }

  // The empty note the web client sends with every action.
  const note = { content: '', entities: [] }

  // ---- locks: bbain opens a letter of her MyBasket, ppetit sees it from "Courriers de ma direction".
  const locks = 'baskets-locks'
  const myBasket = route('bbain', groups.AGENT, baskets.MyBasket)
  const lockState = (exchange, resId) => {
    exchange.database = letterState(db, resId)
  }
  const L = letters.locks
  lockState(
    (await call(locks, 'bbain: locked? (free)', 'bbain', 'PUT', `${myBasket}/locked`, { body: { resources: [L] } }))
      .exchange,
    L,
  )
  lockState(
    (await call(locks, 'bbain: lock', 'bbain', 'PUT', `${myBasket}/lock`, { body: { resources: [String(L)] } }))
      .exchange,
    L,
  )
  await call(locks, 'bbain: locked? (by herself)', 'bbain', 'PUT', `${myBasket}/locked`, { body: { resources: [L] } })
  lockState(
    (await call(locks, 'bbain: lock again (renewed)', 'bbain', 'PUT', `${myBasket}/lock`, { body: { resources: [L] } }))
      .exchange,
    L,
  )
  await call(locks, 'ppetit: locked? (locked by bbain)', 'ppetit', 'PUT', `${department}/locked`, {
    body: { resources: [L, letters.confirm] },
  })
  lockState(
    (
      await call(locks, 'ppetit: lock (locked by bbain: left as is)', 'ppetit', 'PUT', `${department}/lock`, {
        body: { resources: [L] },
      })
    ).exchange,
    L,
  )
  lockState(
    (
      await call(locks, 'ppetit: unlock (locked by bbain: left as is)', 'ppetit', 'PUT', `${department}/unlock`, {
        body: { resources: [L] },
      })
    ).exchange,
    L,
  )
  lockState(
    (
      await call(locks, "ppetit: action 19 on bbain's locked letter", 'ppetit', 'PUT', `${department}/actions/19`, {
        body: { resources: [L] },
      })
    ).exchange,
    L,
  )
  lockState(
    (
      await call(
        locks,
        'ppetit: action 19 on a locked and a free letter',
        'ppetit',
        'PUT',
        `${department}/actions/19`,
        {
          body: { resources: [L, letters.withoutHistory] },
        },
      )
    ).exchange,
    letters.withoutHistory,
  )
  await call(locks, 'ppetit: isAllowed on the locked letter', 'ppetit', 'GET', `/resources/${L}/isAllowed`)
  lockState(
    (await call(locks, 'bbain: unlock', 'bbain', 'PUT', `${myBasket}/unlock`, { body: { resources: [L] } })).exchange,
    L,
  )
  await call(locks, 'ppetit: locked? (after unlock)', 'ppetit', 'PUT', `${department}/locked`, {
    body: { resources: [L] },
  })
  lockState(
    (await call(locks, 'ppetit: lock', 'ppetit', 'PUT', `${department}/lock`, { body: { resources: [L] } })).exchange,
    L,
  )
  await call(locks, 'bbain: locked? (locked by ppetit)', 'bbain', 'PUT', `${myBasket}/locked`, {
    body: { resources: [L] },
  })
  // An expired lock (a minute has passed): set in the past in the database, then asked.
  db.run(`update res_letterbox set locker_time = now() - interval '1 second' where res_id = ${L}`)
  await call(locks, 'bbain: locked? (ppetit lock expired a second ago)', 'bbain', 'PUT', `${myBasket}/locked`, {
    body: { resources: [L] },
  })
  lockState(
    (
      await call(locks, 'bbain: lock over an expired lock', 'bbain', 'PUT', `${myBasket}/lock`, {
        body: { resources: [L] },
      })
    ).exchange,
    L,
  )
  await call(locks, 'bbain: unlock her renewed lock', 'bbain', 'PUT', `${myBasket}/unlock`, {
    body: { resources: [L] },
  })
  // Two clerks close the same letter at the same instant, without locking it first.
  const race = letters.race
  if (race === undefined) throw new Error('no letter filed for the race')
  const raced = await Promise.all([
    call(locks, 'race: bbain closes (action 20)', 'bbain', 'PUT', `${myBasket}/actions/20`, {
      body: { resources: [race], note },
    }),
    call(locks, 'race: ppetit closes (action 20)', 'ppetit', 'PUT', `${department}/actions/20`, {
      body: { resources: [race], note },
    }),
  ])
  raced[1].exchange.database = letterState(db, race)
  for (const [name, body] of [
    ['locked, resources empty', { resources: [] }],
    ['locked, resources a string', { resources: String(L) }],
    ['locked, no body', undefined],
    ['locked, body not JSON', 'resources='],
    ['locked, a letter not in the basket', { resources: [L, 1] }],
    ['locked, an unknown letter', { resources: [99999] }],
    ['locked, a non-integer', { resources: ['abc'] }],
  ]) {
    await call(locks, `bbain: ${name}`, 'bbain', 'PUT', `${myBasket}/locked`, body === undefined ? {} : { body })
  }
  await call(locks, 'bbain: lock, resources empty', 'bbain', 'PUT', `${myBasket}/lock`, { body: { resources: [] } })
  await call(locks, 'bbain: lock, a letter not in the basket', 'bbain', 'PUT', `${myBasket}/lock`, {
    body: { resources: [1] },
  })
  await call(locks, 'bbain: unlock, resources not an array', 'bbain', 'PUT', `${myBasket}/unlock`, {
    body: { resources: 'x' },
  })
  await call(locks, 'bbain: unlock, a letter not in the basket', 'bbain', 'PUT', `${myBasket}/unlock`, {
    body: { resources: [1] },
  })
  await call(
    locks,
    'bbain: lock in a basket of another group',
    'bbain',
    'PUT',
    `${route('bbain', groups.RESPONSABLE, baskets.MyBasket)}/lock`,
    {
      body: { resources: [L] },
    },
  )

  // ---- running actions on bbain's MyBasket, each followed by the letter's rows and its history as 20.10 serves it.
  const actions = 'baskets-actions'
  const act = async (name, user, basketRoute, actionId, body, resIds) => {
    const answer = await call(actions, name, user, 'PUT', `${basketRoute}/actions/${actionId}`, { body })
    answer.exchange.database = Object.fromEntries(resIds.map((resId) => [resId, letterState(db, resId)]))
    return answer
  }
  const history = async (resId, user = 'bbain') => {
    await call(actions, `history of letter ${resId} as ${user}`, user, 'GET', '/history', { query: { resId } })
    await call(actions, `history of letter ${resId} as ${user}, onlyActions`, user, 'GET', '/history', {
      query: { resId, onlyActions: true },
    })
  }

  await call(actions, 'getRedirect for action 1 (redirectAction)', 'bbain', 'GET', `${myBasket}/actions/1/getRedirect`)
  await call(
    actions,
    'getRedirect for action 1 as ppetit (RESPONSABLE, MyBasket)',
    'ppetit',
    'GET',
    `${route('ppetit', groups.RESPONSABLE, baskets.MyBasket)}/actions/1/getRedirect`,
  )
  await call(
    actions,
    'getRedirect for action 19 (no redirect choices)',
    'bbain',
    'GET',
    `${myBasket}/actions/19/getRedirect`,
  )
  await call(actions, 'getRedirect for an unknown action', 'bbain', 'GET', `${myBasket}/actions/99999/getRedirect`)
  await call(
    actions,
    'checkCloseWithFieldsAction 20',
    'bbain',
    'POST',
    `${myBasket}/actions/20/checkCloseWithFieldsAction`,
    {
      body: { resources: [letters.close] },
    },
  )
  await call(
    actions,
    'checkCloseWithFieldsAction 20, a letter outside perimeter',
    'bbain',
    'POST',
    `${myBasket}/actions/20/checkCloseWithFieldsAction`,
    {
      body: { resources: [3] },
    },
  )
  await call(
    actions,
    'checkCloseWithFieldsAction 20, resources empty',
    'bbain',
    'POST',
    `${myBasket}/actions/20/checkCloseWithFieldsAction`,
    {
      body: { resources: [] },
    },
  )
  await call(
    actions,
    'checkCloseWithFieldsAction, an unknown action',
    'bbain',
    'POST',
    `${myBasket}/actions/99999/checkCloseWithFieldsAction`,
    {
      body: { resources: [letters.close] },
    },
  )

  await act(
    'confirmAction 19 (Traiter courrier: COU, no history)',
    'bbain',
    myBasket,
    19,
    { resources: [letters.confirm], note },
    [letters.confirm],
  )
  await act(
    'confirmAction without history flag (added action)',
    'bbain',
    myBasket,
    added.confirmActionWithoutHistory,
    { resources: [letters.withoutHistory] },
    [letters.withoutHistory],
  )
  await act(
    'closeMailAction 20 with a note',
    'bbain',
    myBasket,
    20,
    {
      resources: [letters.close],
      note: { content: 'Clos par le recorder', entities: ['PJS'] },
    },
    [letters.close],
  )
  await history(letters.close)
  await call(actions, `history of letter ${letters.close} as superadmin`, 'superadmin', 'GET', '/history', {
    query: { resId: letters.close },
  })
  await act(
    'closeMailAction 20 again (no longer in the basket)',
    'bbain',
    myBasket,
    20,
    { resources: [letters.close], note },
    [letters.close],
  )
  await act(
    'closeMailWithAttachmentsOrNotesAction without note nor attachment',
    'bbain',
    myBasket,
    added.closeMailWithAttachmentsOrNotesAction,
    {
      resources: [letters.closeWithNote],
      note,
    },
    [letters.closeWithNote],
  )
  await act(
    'closeMailWithAttachmentsOrNotesAction with a note',
    'bbain',
    myBasket,
    added.closeMailWithAttachmentsOrNotesAction,
    {
      resources: [letters.closeWithNote],
      note: { content: 'Réponse faite par téléphone', entities: [] },
    },
    [letters.closeWithNote],
  )
  await history(letters.closeWithNote)
  await act(
    'updateDepartureDateAction',
    'bbain',
    myBasket,
    added.updateDepartureDateAction,
    { resources: [letters.departure], note },
    [letters.departure],
  )
  await act('noConfirmAction (STDBY)', 'bbain', myBasket, added.noConfirmAction, { resources: [letters.noConfirm] }, [
    letters.noConfirm,
  ])
  await act(
    'redirectInitiatorEntityAction (no initiator)',
    'bbain',
    myBasket,
    added.redirectInitiatorEntityAction,
    { resources: [letters.initiator], note },
    [letters.initiator],
  )
  await act(
    'redirectInitiatorEntityAction (initiator VILLE)',
    'bbain',
    myBasket,
    added.redirectInitiatorEntityAction,
    { resources: [letters.initiatorSet], note },
    [letters.initiatorSet],
  )

  // Redirect to a service: the web client sends the service's serial id and the diffusion list of its template.
  const template = await call(
    actions,
    'the diffusion list template of PE (what the client sends)',
    'bbain',
    'GET',
    `/listTemplates/entities/${entities.PE}`,
    {
      query: { type: 'diffusionList' },
    },
  )
  const templateItems = (template.body?.listTemplates?.[0]?.items ?? []).map((item) => ({
    item_id: item.item_id,
    item_type: item.item_type === 'entity' ? 'entity_id' : 'user_id',
    item_mode: item.item_mode,
  }))
  await act(
    'redirectAction 1 to the entity PE (its template)',
    'bbain',
    myBasket,
    1,
    {
      resources: [letters.redirectEntity],
      data: { destination: entities.PE, listInstances: templateItems },
      note: { content: 'Pour la petite enfance', entities: [] },
    },
    [letters.redirectEntity],
  )
  await history(letters.redirectEntity)
  await act(
    'redirectAction 1 to the user ccharles (onlyRedirectDest, one item: copies kept)',
    'bbain',
    myBasket,
    1,
    {
      resources: [letters.redirectUser],
      data: {
        onlyRedirectDest: true,
        listInstances: [{ item_id: 'ccharles', item_type: 'user_id', item_mode: 'dest' }],
      },
      note,
    },
    [letters.redirectUser],
  )
  await act(
    'redirectAction 1 to ccharles keeping bbain in copy (two items)',
    'bbain',
    myBasket,
    1,
    {
      resources: [letters.redirectUserKeep],
      data: {
        onlyRedirectDest: true,
        listInstances: [
          { item_id: users.bbain, item_type: 'user_id', item_mode: 'cc' },
          { item_id: users.ccharles, item_type: 'user_id', item_mode: 'dest' },
        ],
      },
      note,
    },
    [letters.redirectUserKeep],
  )
  await act(
    'redirectAction 1 without data (ccharles, now dest)',
    'ccharles',
    route('ccharles', groups.AGENT, baskets.MyBasket),
    1,
    { resources: [letters.redirectUser] },
    [letters.redirectUser],
  )
  await act(
    'redirectAction 1 with no dest in the list',
    'ccharles',
    route('ccharles', groups.AGENT, baskets.MyBasket),
    1,
    {
      resources: [letters.redirectUser],
      data: { listInstances: [{ item_id: users.bbain, item_type: 'user_id', item_mode: 'cc' }] },
    },
    [letters.redirectUser],
  )
  await act(
    'redirectAction 1 to an unknown user',
    'ccharles',
    route('ccharles', groups.AGENT, baskets.MyBasket),
    1,
    {
      resources: [letters.redirectUser],
      data: { onlyRedirectDest: true, listInstances: [{ item_id: 'nobody', item_type: 'user_id', item_mode: 'dest' }] },
    },
    [letters.redirectUser],
  )

  await act('enabledBasketPersistenceAction 524', 'bbain', myBasket, 524, { resources: [letters.persistence] }, [
    letters.persistence,
  ])
  await act('enabledBasketPersistenceAction 524 again', 'bbain', myBasket, 524, { resources: [letters.persistence] }, [
    letters.persistence,
  ])
  await act('disabledBasketPersistenceAction 525', 'bbain', myBasket, 525, { resources: [letters.persistence] }, [
    letters.persistence,
  ])

  // Mark as read in "Courriers en copie" (action 114 is offered in the list only): the letter leaves the basket.
  const copyBasket = route('bbain', groups.AGENT, baskets.CopyMailBasket)
  await call(actions, 'bbain CopyMailBasket before marking as read', 'bbain', 'GET', copyBasket, {
    query: { limit: 10, offset: 0 },
  })
  await act(
    'resMarkAsReadAction 114 (data.basketId = 5)',
    'bbain',
    copyBasket,
    114,
    {
      resources: [letters.copy],
      data: { basketId: baskets.CopyMailBasket },
    },
    [letters.copy],
  )
  await call(actions, 'bbain CopyMailBasket after marking as read', 'bbain', 'GET', copyBasket, {
    query: { limit: 10, offset: 0 },
  })
  await act(
    'resMarkAsReadAction 114 without data',
    'bbain',
    copyBasket,
    114,
    { resources: [letters.redirectUserKeep] },
    [letters.redirectUserKeep],
  )
  await act(
    'resMarkAsReadAction 114 with data.basketId a basket code',
    'bbain',
    copyBasket,
    114,
    {
      resources: [letters.redirectUserKeep],
      data: { basketId: 'CopyMailBasket' },
    },
    [letters.redirectUserKeep],
  )

  // Components Mailroom does not run: what 20.10 does with them.
  await act(
    'sendSignatureBookAction 414 (visa circuit, none set)',
    'bbain',
    myBasket,
    414,
    { resources: [letters.unsupported], note },
    [letters.unsupported],
  )
  await act(
    'sendToParallelOpinion 36 (no opinion list)',
    'bbain',
    myBasket,
    36,
    { resources: [letters.unsupported], note },
    [letters.unsupported],
  )
  await act(
    'createAcknowledgementReceiptsAction 400',
    'bbain',
    myBasket,
    400,
    { resources: [letters.unsupported], note },
    [letters.unsupported],
  )
  await act(
    'sendExternalSignatoryBookAction 527 (no signatory book configured)',
    'bbain',
    myBasket,
    527,
    { resources: [letters.unsupported], note },
    [letters.unsupported],
  )

  // ---- refusals
  const refusals = 'baskets-refusals'
  const put = (name, user, path, body) => call(refusals, name, user, 'PUT', path, body === undefined ? {} : { body })
  const U = letters.urgent
  const ok = { resources: [U], note }
  await put('unknown basket', 'bbain', `${route('bbain', groups.AGENT, 99999)}/actions/19`, ok)
  await put('unknown group', 'bbain', `${route('bbain', 99999, baskets.MyBasket)}/actions/19`, ok)
  await put(
    'unknown user',
    'bbain',
    `/resourcesList/users/99999/groups/${groups.AGENT}/baskets/${baskets.MyBasket}/actions/19`,
    ok,
  )
  await put(
    "another clerk's userId (ccharles, same group)",
    'bbain',
    `${route('ccharles', groups.AGENT, baskets.MyBasket)}/actions/19`,
    ok,
  )
  await put(
    'a group the user is not in (RESPONSABLE)',
    'bbain',
    `${route('bbain', groups.RESPONSABLE, baskets.MyBasket)}/actions/19`,
    ok,
  )
  await put(
    'a basket not linked to the group (ValidationBasket)',
    'bbain',
    `${route('bbain', groups.AGENT, baskets.ValidationBasket)}/actions/19`,
    ok,
  )
  await put('unknown action', 'bbain', `${myBasket}/actions/99999`, ok)
  await put('an action not linked to the basket (22)', 'bbain', `${myBasket}/actions/22`, ok)
  await put('non-integer basket id', 'bbain', `${route('bbain', groups.AGENT, 'abc')}/actions/19`, ok)
  await put(
    'non-integer user id',
    'bbain',
    `/resourcesList/users/abc/groups/${groups.AGENT}/baskets/${baskets.MyBasket}/actions/19`,
    ok,
  )
  await put('non-integer action id', 'bbain', `${myBasket}/actions/abc`, ok)
  await put('a letter not in the basket (sample 1, bbain is dest but ATT_MP)', 'bbain', `${myBasket}/actions/19`, {
    resources: [U, 1],
    note,
  })
  await put('a letter outside the perimeter (3)', 'bbain', `${myBasket}/actions/19`, { resources: [3] })
  await put('an unknown letter', 'bbain', `${myBasket}/actions/19`, { resources: [99999] })
  await put('501 letters', 'bbain', `${myBasket}/actions/19`, {
    resources: [U, ...Array.from({ length: 500 }, (_, i) => 100000 + i)],
  })
  await put('501 letters, the 501st outside the basket', 'bbain', `${myBasket}/actions/19`, {
    resources: [...Array.from({ length: 500 }, () => U), 1],
  })
  await put('resources not an array', 'bbain', `${myBasket}/actions/19`, { resources: U })
  await put('resources empty', 'bbain', `${myBasket}/actions/19`, { resources: [] })
  await put('resources missing', 'bbain', `${myBasket}/actions/19`, { note })
  await put('resources of strings', 'bbain', `${myBasket}/actions/19`, { resources: ['abc'] })
  await put('resources of numeric strings', 'bbain', `${myBasket}/actions/${added.confirmActionWithoutHistory}`, {
    resources: [String(U)],
  })
  await put('resources of objects', 'bbain', `${myBasket}/actions/19`, { resources: [{ id: U }] })
  await put('no body', 'bbain', `${myBasket}/actions/19`)
  await put('body not JSON', 'bbain', `${myBasket}/actions/19`, 'resources=1')
  await put('note a string', 'bbain', `${myBasket}/actions/19`, { resources: [U], note: 'texte' })
  await put('data a string on redirect', 'bbain', `${myBasket}/actions/1`, { resources: [U], data: 'x' })
  // A letter locked by someone else: ppetit locks it from her department basket, bbain acts.
  await call(refusals, 'ppetit locks the urgent letter', 'ppetit', 'PUT', `${department}/lock`, {
    body: { resources: [U] },
  })
  const lockedAction = await put('a letter locked by another clerk', 'bbain', `${myBasket}/actions/19`, ok)
  lockedAction.exchange.database = letterState(db, U)
  await put('a locked and an unlocked letter', 'bbain', `${myBasket}/actions/${added.confirmActionWithoutHistory}`, {
    resources: [U, letters.noConfirm],
  })
  await call(refusals, 'ppetit unlocks it', 'ppetit', 'PUT', `${department}/unlock`, { body: { resources: [U] } })
  await call(refusals, 'list of an unknown basket', 'bbain', 'GET', route('bbain', groups.AGENT, 99999))
  await call(
    refusals,
    "list of another clerk's basket",
    'bbain',
    'GET',
    route('ccharles', groups.AGENT, baskets.MyBasket),
  )
  await call(refusals, 'list with a non-integer group', 'bbain', 'GET', route('bbain', 'abc', baskets.MyBasket))
  await call(
    refusals,
    'filters of a basket not linked to the group',
    'bbain',
    'GET',
    `${route('bbain', groups.AGENT, baskets.ValidationBasket)}/filters`,
  )
  await call(
    refusals,
    'actions of a group the user is not in',
    'bbain',
    'GET',
    `${route('bbain', groups.RESPONSABLE, baskets.MyBasket)}/actions`,
  )
  await call(refusals, 'actions for an unknown letter', 'bbain', 'GET', `${myBasket}/actions`, {
    query: { resId: 99999 },
  })
  await call(refusals, 'no credentials', null, 'GET', myBasket)

  // ---- a lent basket: bbain lends "Courriers à traiter" to ccharles, who lists and acts on it with bbain's ids.
  const lent = 'baskets-lent'
  await call(
    lent,
    'bbain lends MyBasket (group AGENT) to ccharles',
    'bbain',
    'POST',
    `/users/${users.bbain}/redirectedBaskets`,
    {
      body: [{ actual_user_id: users.ccharles, basket_id: 'MyBasket', group_id: groups.AGENT }],
    },
  )
  ids.lentBasket = db.json('select row_to_json(r) from redirected_baskets r order by id desc limit 1')
  await call(lent, 'home of ccharles (assigned basket)', 'ccharles', 'GET', '/home')
  await call(lent, 'profile of ccharles (assigned basket)', 'ccharles', 'GET', '/currentUser/profile')
  await call(lent, 'home of bbain (redirected basket)', 'bbain', 'GET', '/home')
  await call(lent, 'profile of bbain (redirected basket)', 'bbain', 'GET', '/currentUser/profile')
  await call(lent, 'ccharles lists the lent basket with bbain ids', 'ccharles', 'GET', myBasket, {
    query: { limit: 10, offset: 0 },
  })
  await call(lent, 'bbain lists her lent basket', 'bbain', 'GET', myBasket, { query: { limit: 10, offset: 0 } })
  await call(lent, 'ppetit lists the basket lent to ccharles', 'ppetit', 'GET', myBasket, {
    query: { limit: 10, offset: 0 },
  })
  await call(lent, 'ccharles: actions of the lent basket', 'ccharles', 'GET', `${myBasket}/actions`, {
    query: { resId: U },
  })
  await call(lent, 'ccharles: isAllowed on a letter of the lent basket', 'ccharles', 'GET', `/resources/${U}/isAllowed`)
  await call(lent, 'ccharles: locked? in the lent basket', 'ccharles', 'PUT', `${myBasket}/locked`, {
    body: { resources: [U] },
  })
  const lentAction = await call(
    lent,
    'ccharles: action 19 in the lent basket',
    'ccharles',
    'PUT',
    `${myBasket}/actions/19`,
    {
      body: { resources: [U], note },
    },
  )
  lentAction.exchange.database = letterState(db, U)
  await call(lent, 'bbain acts in her lent basket', 'bbain', 'PUT', `${myBasket}/actions/19`, {
    body: { resources: [U], note },
  })
  await call(lent, 'bbain lends it again (already)', 'bbain', 'POST', `/users/${users.bbain}/redirectedBaskets`, {
    body: [{ actual_user_id: users.ccharles, basket_id: 'MyBasket', group_id: groups.AGENT }],
  })
  await call(lent, 'bbain takes it back', 'bbain', 'DELETE', `/users/${users.bbain}/redirectedBaskets`, {
    query: { 'redirectedBasketIds[]': ids.lentBasket?.id },
  })
  await call(lent, 'ccharles lists it once taken back', 'ccharles', 'GET', myBasket, {
    query: { limit: 10, offset: 0 },
  })

  // ---- after the actions: homes, last resources and counts again.
  const countsAfter = {}
  for (const user of ['bbain', 'ccharles', 'ppetit']) {
    await call('baskets-home', `home of ${user} after the actions`, user, 'GET', '/home')
    await call('baskets-home', `last resources of ${user} after the actions`, user, 'GET', '/home/lastRessources')
    countsAfter[user] = {}
    for (const { group, basket, name } of listsOf[user]) {
      const list = await call(
        'baskets-lists',
        `${user}: ${name} (group ${group}) after the actions`,
        user,
        'GET',
        route(user, group, basket),
        {
          query: { limit: 10, offset: 0 },
        },
      )
      countsAfter[user][`${group}/${name}`] = list.body?.count
    }
  }
  ids.countsAfterActions = countsAfter
  return ids
}
