// Records what a running Maarch Courrier 20.10 answers to every GET its web client makes on a letter's processing
// page (issue 54, item 5) and in the dialogs of the actions Cloturer, Rediriger and "marquer comme lu", for the
// sample's clerks and letters of their baskets, a letter outside each clerk's perimeter, an unknown id and a
// malformed id. Called by record-maarch-answers.mjs with `--only=letter-page`, against a fresh instance (see the
// fixtures' README.md): it sends GETs only (and the dialog's POST …/checkCloseWithFieldsAction, which writes
// nothing), so every answer is the sample's, plus the `VIEW` history lines 20.10 writes when a document is read.

import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'

const clerks = ['bbain', 'ppetit', 'bblier', 'ccharles', 'ddaull']

// The action components whose dialogs are recorded (the journey's Cloturer, and the sample's Rediriger and
// "marquer comme lu"), keyed by 20.10's component name.
const dialogComponents = new Set(['closeMailAction', 'redirectAction', 'resMarkAsReadAction'])

/** The serial ids of the sample's users, groups, baskets, entities and actions, code → id (what a replay maps). */
function sampleSerials(database) {
  const sql = `select json_build_object(
    'users', (select json_object_agg(user_id, id) from users),
    'groups', (select json_object_agg(group_id, id) from usergroups),
    'baskets', (select json_object_agg(basket_id, id) from baskets),
    'entities', (select json_object_agg(entity_id, id) from entities),
    'actions', (select json_object_agg(id, component) from actions),
    'letters', (select count(*) from res_letterbox))`
  const out = execFileSync(
    'psql',
    ['-h', '127.0.0.1', '-U', 'postgres', '-d', database, '-Atq', '-v', 'ON_ERROR_STOP=1', '-c', sql],
    { encoding: 'utf8' },
  )
  return JSON.parse(out)
}

/** The document's base64 kept as its digest and shape: the first characters, the length, the bytes' sha256. */
function digestDocument(exchange, answer) {
  const encoded = answer?.encodedDocument
  if (typeof encoded !== 'string') return
  const bytes = Buffer.from(encoded, 'base64')
  exchange.response.body.encodedDocument = {
    truncatedBase64: {
      head: encoded.slice(0, 64),
      length: encoded.length,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
  }
}

export async function recordLetterPage({ call, database }) {
  const serials = sampleSerials(database)
  if (serials.letters !== 20) throw new Error(`the database has ${serials.letters} letters: start from a fresh sample`)
  const users = serials.users
  const cases = []

  for (const user of clerks) {
    const userId = users[user]
    const get = (file, name, path, query) =>
      call(`letter-page-${file}`, `${user}: ${name}`, user, 'GET', path, { query })

    // ---- what the page and its indexing form read once, whatever the letter (the clerk's own answers).
    await get('reference', 'indexing file informations', '/indexing/fileInformations')
    await get('reference', 'external connections', '/externalConnectionsEnabled')
    await get('reference', 'indexing models entities', '/indexingModels/entities')
    await get('reference', 'contacts custom fields', '/contactsCustomFields')
    await get('reference', 'custom fields', '/customFields')
    await get('reference', 'indexing models', '/indexingModels')
    await get('reference', 'priorities', '/priorities')
    await get('reference', 'entities (the note editor of every dialog)', '/entities')
    await get('reference', 'roles in the redirect dialog', '/roles', { context: 'redirect' })
    if (user === 'bbain') await get('reference', 'doctypes', '/doctypes')

    // ---- the clerk's non-empty baskets on the sample and their first letter (not recorded: baskets-lists.json).
    const home = await call('context', `home of ${user}`, user, 'GET', '/home')
    const opened = []
    for (const group of home.body?.regroupedBaskets ?? []) {
      for (const basket of group.baskets) {
        const route = `/resourcesList/users/${userId}/groups/${group.groupSerialId}/baskets/${basket.id}`
        const list = await call('context', `${user} ${basket.basket_id}`, user, 'GET', route, {
          query: { limit: 10, offset: 0 },
        })
        // The basket's first letter not opened from an earlier basket (else its first): more letters are seen.
        const listed = list.body?.allResources ?? []
        const first = listed.find((resId) => !opened.some((letter) => letter.resId === resId)) ?? listed[0]
        if (first !== undefined) {
          opened.push({
            group: group.groupSerialId,
            basket: basket.id,
            basketCode: basket.basket_id,
            route,
            resId: first,
          })
        }
        // The redirect dialog's choices depend on the basket only: recorded for every basket that offers it.
        const offered = await call('context', `${user} ${basket.basket_id} actions`, user, 'GET', `${route}/actions`)
        for (const action of offered.body?.actions ?? []) {
          if (action.component !== 'redirectAction') continue
          const name = `${basket.basket_id} (group ${group.groupSerialId}): Rediriger (action ${action.id}) getRedirect`
          await get('dialogs', name, `${route}/actions/${action.id}/getRedirect`)
        }
      }
    }
    if (opened.length === 0) throw new Error(`${user} has no letter in a basket`)
    const inBaskets = new Set(opened.map((letter) => letter.resId))

    // A letter outside the clerk's perimeter: the first of the sample's that isAllowed refuses.
    let outside = null
    for (let resId = 1; resId <= 20 && outside === null; resId++) {
      if (inBaskets.has(resId)) continue
      const allowed = await call('context', `${user} isAllowed ${resId}`, user, 'GET', `/resources/${resId}/isAllowed`)
      if (allowed.body?.isAllowed === false) outside = resId
    }
    const firstBasket = opened[0]
    const letters = [
      ...opened.map((letter) => ({ ...letter, kind: 'in basket' })),
      ...(outside === null ? [] : [{ ...firstBasket, resId: outside, kind: 'outside perimeter' }]),
      { ...firstBasket, resId: 99999, kind: 'unknown id' },
      { ...firstBasket, resId: 'abc', kind: 'malformed id' },
    ]

    for (const letter of letters) {
      const { route, resId, basketCode, group, basket, kind } = letter
      const label = `${basketCode} (group ${group}), letter ${resId} (${kind})`
      cases.push({ user, userId, group, basket, basketCode, resId, kind })
      const res = `/resources/${resId}`
      const page = (name, path, query) => get('page', `${label}: ${name}`, path, query)
      await page('isAllowed', `${res}/isAllowed`)
      const light = await page('light', res, { light: true })
      await page('items', `${res}/items`)
      await page('attachments', `${res}/attachments`, { limit: 3 })
      await page('history of actions', '/history', { resId, limit: 3, onlyActions: true })
      await page('history', '/history', { resId, limit: 3 })
      await page('processing data', `${res}/users/${userId}/groups/${group}/baskets/${basket}/processingData`)
      await page('external summary', `/externalSummary/${resId}`, { limit: 3 })
      const actions = await page('actions', `${route}/actions`, { resId })
      await page('notes', `${res}/notes`, { limit: 3 })
      await page('versions informations', `${res}/versionsInformations`)
      await page('file information', `${res}/fileInformation`)
      await page('external id', `${res}/fields/externalId`)
      const content = await page('content', `${res}/content`, { mode: 'base64' })
      digestDocument(content.exchange, content.body)
      await page('full', res)
      const correspondents = light.body?.categoryId === 'outgoing' ? light.body?.recipients : light.body?.senders
      if (correspondents?.length === 1 && correspondents[0].type === 'contact') {
        await page('the correspondent', `/contacts/${correspondents[0].id}`)
      }

      // ---- the dialogs of the actions the page offers (for the other letters, the letter-scoped GETs alone).
      const dialog = (name, path, query) => get('dialogs', `${label}: ${name}`, path, query)
      const offered = (actions.body?.actions ?? []).filter((action) => dialogComponents.has(action.component))
      const components = kind === 'in basket' ? offered : [{ id: 0, component: 'anyAction' }]
      for (const action of components) {
        const actionRoute = `${route}/actions/${action.id}`
        if (action.component === 'closeMailAction') {
          await call(
            'letter-page-dialogs',
            `${user}: ${label}: Cloturer (action ${action.id}) checkCloseWithFieldsAction`,
            user,
            'POST',
            `${actionRoute}/checkCloseWithFieldsAction`,
            { body: { resources: [resId] } },
          )
        }
        if (action.component === 'redirectAction') {
          const redirect = await dialog(`Rediriger (action ${action.id}) getRedirect`, `${actionRoute}/getRedirect`)
          const destination = await dialog('destination (alt)', `${res}/fields/destination`, { alt: true })
          if (Number.isInteger(destination.body?.field)) {
            await dialog(
              'diffusion list model of the destination',
              `/listTemplates/entities/${destination.body.field}`,
              {
                type: 'diffusionList',
              },
            )
          }
          const firstUser = redirect.body?.users?.[0]
          if (firstUser !== undefined) {
            await dialog(
              `is the destination changing (user ${firstUser.id})`,
              `${res}/users/${firstUser.id}/isDestinationChanging`,
            )
          }
        }
        if (action.component === 'anyAction') {
          await dialog('destination (alt)', `${res}/fields/destination`, { alt: true })
          await dialog(`is the destination changing (user ${userId})`, `${res}/users/${userId}/isDestinationChanging`)
        }
        if (action.component === 'redirectAction' || action.component === 'anyAction') {
          await dialog('diffusion list', `${res}/listInstance`)
          await dialog('destination', `${res}/fields/destination`)
        }
        await dialog(`notes templates (${action.component})`, '/notesTemplates', { resId })
      }
    }
  }
  return {
    recordedAt: new Date().toISOString(),
    users,
    groups: serials.groups,
    baskets: serials.baskets,
    entities: serials.entities,
    actions: serials.actions,
    cases,
  }
}
