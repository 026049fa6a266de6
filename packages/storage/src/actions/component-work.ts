import type { Actor, ComponentWork, HistoryRow, LetterActionPlan } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { replaceDiffusionList } from '../diffusion-list/replace-diffusion-list.js'

type Executor = Kysely<Database>

/** A component's refusal for one letter: the letter is left as it was and the caller told why (20.10's words). */
export class ComponentRefusal extends Error {}

/** Sets a date column to `at` on the letter when it has none (a second close keeps the first date, as in 20.10). */
async function setDateOnce(trx: Executor, resId: number, column: 'closing_date' | 'departure_date', at: Date) {
  await trx
    .updateTable('res_letterbox')
    .set({ [column]: at })
    .where('res_id', '=', resId)
    .where(column, 'is', null)
    .execute()
}

/** 20.10's closeMailWithAttachmentsOrNotesAction: the letter closes only with an attachment or a note of the actor. */
async function hasAttachmentOrNote(trx: Executor, actor: Actor, resId: number, plan: LetterActionPlan) {
  if (plan.note !== null) return true
  const { rows } = await sql<{ found: boolean }>`select
      exists (select 1 from res_attachments where res_id_master = ${resId} and status <> 'DEL')
      or exists (select 1 from notes where identifier = ${resId} and user_id = ${actor.id}) as found`.execute(trx)
  return rows[0]?.found === true
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

async function setPersistence(trx: Executor, actor: Actor, resId: number, persistent: 'Y' | 'N') {
  await trx.deleteFrom('basket_persistent_mode').where('res_id', '=', resId).where('user_id', '=', actor.id).execute()
  await trx
    .insertInto('basket_persistent_mode')
    .values({ res_id: resId, user_id: actor.id, is_persistent: persistent })
    .execute()
}

/**
 * 20.10's redirectInitiatorEntityAction: the initiator becomes the destination and the assignee is the one of its
 * diffusion list template; the letter's assignee rows turn into copies and the new assignee's row is added (no
 * history of the list, as in 20.10). Without a template assignee the letter has none. Unlike 20.10, a suspended
 * or removed assignee is passed over, as a diffusion list template shows none.
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
 * The component's own work on one letter, in the letter's transaction, after its status is set (so a close's date
 * survives a status that is not a closing one). Returns the extra history rows it writes (a redirect's); throws
 * ComponentRefusal when the letter cannot take it.
 */
export async function runComponent(
  trx: Executor,
  actor: Actor,
  resId: number,
  plan: LetterActionPlan,
  at: Date,
): Promise<Omit<HistoryRow, 'recordId'>[]> {
  const work: ComponentWork = plan.work
  switch (work.component) {
    case 'confirmAction':
    case 'noConfirmAction':
      return []
    case 'closeMailWithAttachmentsOrNotesAction':
      if (!(await hasAttachmentOrNote(trx, actor, resId, plan))) throw new ComponentRefusal('No attachments or notes')
      await setDateOnce(trx, resId, 'closing_date', at)
      return []
    case 'closeMailAction':
      await setDateOnce(trx, resId, 'closing_date', at)
      return []
    case 'updateDepartureDateAction':
      await setDateOnce(trx, resId, 'departure_date', at)
      return []
    case 'enabledBasketPersistenceAction':
      await setPersistence(trx, actor, resId, 'Y')
      return []
    case 'disabledBasketPersistenceAction':
      await setPersistence(trx, actor, resId, 'N')
      return []
    case 'resMarkAsReadAction': {
      const basketId = await markedBasketCode(trx, work.markedBasket)
      await trx
        .deleteFrom('res_mark_as_read')
        .where('res_id', '=', resId)
        .where('user_id', '=', actor.id)
        .where('basket_id', '=', basketId)
        .execute()
      await trx
        .insertInto('res_mark_as_read')
        .values({ res_id: resId, user_id: actor.id, basket_id: basketId })
        .execute()
      return []
    }
    case 'redirectInitiatorEntityAction':
      await redirectToInitiator(trx, resId, actor.id)
      return []
    case 'redirectAction':
      return replaceDiffusionList(trx, resId, work.redirect, actor.id)
  }
}
