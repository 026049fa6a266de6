import type { Actor, ComponentWork, HistoryRow, LetterActionPlan } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { DiffusionListRefusal, replaceDiffusionList } from '../diffusion-list/replace-diffusion-list.js'

type Executor = Kysely<Database>

/** A history row of a letter, without its record. */
type LetterHistoryRow = Omit<HistoryRow, 'recordId'>

/** What the component decided before the letters' status is set. */
export interface ComponentTake {
  /** The letters it refuses, with 20.10's reason: they are left as they were. */
  readonly refused: ReadonlyMap<number, string>
  /** The history rows of the work it did on each letter it took (a redirect's). */
  readonly history: ReadonlyMap<number, readonly LetterHistoryRow[]>
}

const NOTHING_REFUSED: ComponentTake = { refused: new Map(), history: new Map() }

/** The ids as a bound array, for `= any(…)`. */
function idArray(resIds: readonly number[]) {
  return sql`${sql.val([...resIds])}::bigint[]`
}

/** 20.10's closeMailWithAttachmentsOrNotesAction: the letters with an attachment or a note of the actor. */
async function withAttachmentOrNote(trx: Executor, actor: Actor, resIds: readonly number[]): Promise<Set<number>> {
  const { rows } = await sql<{ id: string | number }>`select t.id from unnest(${idArray(resIds)}) as t(id)
    where exists (select 1 from res_attachments where res_id_master = t.id and status <> 'DEL')
      or exists (select 1 from notes where identifier = t.id and user_id = ${actor.id})`.execute(trx)
  return new Set(rows.map((row) => Number(row.id)))
}

/**
 * 20.10's redirectAction, letter by letter (each list is read and replaced on its own), each under a savepoint: a
 * letter the diffusion list refuses (an unknown user, no assignee) is rolled back alone, before or after its writes.
 */
async function redirectEach(
  trx: Executor,
  actor: Actor,
  resIds: readonly number[],
  work: Extract<ComponentWork, { component: 'redirectAction' }>,
): Promise<ComponentTake> {
  const refused = new Map<number, string>()
  const history = new Map<number, readonly LetterHistoryRow[]>()
  for (const resId of resIds) {
    await sql`savepoint redirect_letter`.execute(trx)
    try {
      history.set(resId, await replaceDiffusionList(trx, resId, work.redirect, actor.id))
      await sql`release savepoint redirect_letter`.execute(trx)
    } catch (error) {
      await sql`rollback to savepoint redirect_letter`.execute(trx)
      if (!(error instanceof DiffusionListRefusal)) throw error
      refused.set(resId, error.message)
    }
  }
  return { refused, history }
}

/**
 * The component's checks, and its work that may refuse a letter after writing (a redirect's), before the letters'
 * status is set; a letter it refuses gets nothing else. The other components refuse no letter.
 */
export async function takeLetters(
  trx: Executor,
  actor: Actor,
  resIds: readonly number[],
  plan: LetterActionPlan,
): Promise<ComponentTake> {
  const work = plan.work
  if (resIds.length === 0) return NOTHING_REFUSED
  if (work.component === 'redirectAction') return redirectEach(trx, actor, resIds, work)
  // A note given with the action is the letter's note: every letter takes it.
  if (work.component !== 'closeMailWithAttachmentsOrNotesAction' || plan.note !== null) return NOTHING_REFUSED
  const kept = await withAttachmentOrNote(trx, actor, resIds)
  const refused = new Map(resIds.filter((resId) => !kept.has(resId)).map((resId) => [resId, 'No attachments or notes']))
  return { refused, history: new Map() }
}

/** Sets a date column to `at` on the letters that have none (a second close keeps the first date, as in 20.10). */
async function setDateOnce(
  trx: Executor,
  resIds: readonly number[],
  column: 'closing_date' | 'departure_date',
  at: Date,
) {
  await trx
    .updateTable('res_letterbox')
    .set({ [column]: at })
    .where('res_id', '=', sql<number>`any(${idArray(resIds)})`)
    .where(column, 'is', null)
    .execute()
}

/** The clerk's one persistence row per letter. */
async function setPersistence(trx: Executor, actor: Actor, resIds: readonly number[], persistent: 'Y' | 'N') {
  await trx
    .deleteFrom('basket_persistent_mode')
    .where('res_id', '=', sql<number>`any(${idArray(resIds)})`)
    .where('user_id', '=', actor.id)
    .execute()
  await trx
    .insertInto('basket_persistent_mode')
    .values(resIds.map((resId) => ({ res_id: resId, user_id: actor.id, is_persistent: persistent })))
    .execute()
}

/** The code of the basket a copy is read from. */
async function markedBasketCode(
  trx: Executor,
  marked: Extract<ComponentWork, { component: 'resMarkAsReadAction' }>['markedBasket'],
): Promise<string> {
  if ('code' in marked) return marked.code
  const row = await trx.selectFrom('baskets').select('basket_id').where('id', '=', marked.serial).executeTakeFirst()
  return row?.basket_id ?? marked.fallback
}

/**
 * 20.10's redirectInitiatorEntityAction: the initiator becomes the destination and the assignee is the one of its
 * diffusion list template; the letter's assignee rows turn into copies and the new assignee's row is added (no
 * history of the list, as in 20.10). Without a template assignee the letter has none. Unlike 20.10, a suspended
 * or removed assignee is passed over, as a diffusion list template shows none. Letter by letter: each has its own
 * initiator and list.
 */
async function redirectToInitiator(trx: Executor, resId: number, actorId: number) {
  const record = await trx
    .selectFrom('res_letterbox')
    .select('initiator')
    .where('res_id', '=', resId)
    .executeTakeFirst()
  if (!record?.initiator) return
  const entity = await trx
    .selectFrom('entities')
    .select('id')
    .where('entity_id', '=', record.initiator)
    .executeTakeFirst()
  if (!entity) return
  const assignee = await trx
    .selectFrom('list_templates as t')
    .innerJoin('list_templates_items as i', 'i.list_template_id', 't.id')
    .innerJoin('users as u', 'u.id', 'i.item_id')
    .select('u.id')
    .where('t.entity_id', '=', entity.id)
    .where('t.type', '=', 'diffusionList')
    .where('t.owner', 'is', null)
    .where('i.item_type', '=', 'user')
    .where('i.item_mode', '=', 'dest')
    .where('u.status', 'not in', ['SPD', 'DEL'])
    .orderBy('t.id')
    .orderBy('i.sequence')
    .orderBy('i.id')
    .executeTakeFirst()
  if (assignee !== undefined) {
    await trx
      .updateTable('listinstance')
      .set({ item_mode: 'cc' })
      .where('res_id', '=', resId)
      .where('item_mode', '=', 'dest')
      .execute()
    await trx
      .insertInto('listinstance')
      .values({
        res_id: resId,
        sequence: 0,
        item_id: assignee.id,
        item_type: 'user_id',
        item_mode: 'dest',
        added_by_user: actorId,
        viewed: 0,
        difflist_type: 'entity_id',
      })
      .execute()
  }
  await trx
    .updateTable('res_letterbox')
    .set({ destination: record.initiator, dest_user: assignee?.id ?? null })
    .where('res_id', '=', resId)
    .execute()
}

/**
 * The component's own writes on the letters it took, after their status is set (so a close's date survives a status
 * that is not a closing one), each one statement for all of them but a redirect to the initiator's (letter by letter).
 */
export async function completeLetters(
  trx: Executor,
  actor: Actor,
  resIds: readonly number[],
  work: ComponentWork,
  at: Date,
): Promise<void> {
  if (resIds.length === 0) return
  switch (work.component) {
    case 'confirmAction':
    case 'noConfirmAction':
    case 'redirectAction':
      return
    case 'closeMailWithAttachmentsOrNotesAction':
    case 'closeMailAction':
      return setDateOnce(trx, resIds, 'closing_date', at)
    case 'updateDepartureDateAction':
      return setDateOnce(trx, resIds, 'departure_date', at)
    case 'enabledBasketPersistenceAction':
      return setPersistence(trx, actor, resIds, 'Y')
    case 'disabledBasketPersistenceAction':
      return setPersistence(trx, actor, resIds, 'N')
    case 'resMarkAsReadAction': {
      const basketId = await markedBasketCode(trx, work.markedBasket)
      await trx
        .deleteFrom('res_mark_as_read')
        .where('res_id', '=', sql<number>`any(${idArray(resIds)})`)
        .where('user_id', '=', actor.id)
        .where('basket_id', '=', basketId)
        .execute()
      await trx
        .insertInto('res_mark_as_read')
        .values(resIds.map((resId) => ({ res_id: resId, user_id: actor.id, basket_id: basketId })))
        .execute()
      return
    }
    case 'redirectInitiatorEntityAction':
      for (const resId of resIds) await redirectToInitiator(trx, resId, actor.id)
      return
  }
}
