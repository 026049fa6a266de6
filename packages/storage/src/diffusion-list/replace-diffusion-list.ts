import { DIFFUSION_LIST_HISTORY, type HistoryRow, type RedirectData, type RedirectItem } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database, ListinstanceTable } from '../database/schema.js'

type Executor = Kysely<Database>

/** An item resolved to the serial id listinstance stores. */
interface ResolvedItem {
  readonly id: number
  readonly type: 'user_id' | 'entity_id'
  readonly mode: string
  readonly viewed: number
}

/** Why the list could not be written: 20.10's messages (`ListInstanceController::updateListInstance`). */
export class DiffusionListRefusal extends Error {}

const DIGITS = /^\d+$/
const INTEGER_MAX = 2_147_483_647

function serialOf(text: string): number | null {
  if (!DIGITS.test(text)) return null
  const id = Number(text)
  return id <= INTEGER_MAX ? id : null
}

async function resolveItem(trx: Executor, item: RedirectItem): Promise<ResolvedItem> {
  const serial = serialOf(item.itemId)
  if (item.itemType === 'user_id') {
    const user = await trx
      .selectFrom('users')
      .select('id')
      .where(serial === null ? 'user_id' : 'id', '=', serial ?? item.itemId)
      .executeTakeFirst()
    if (!user) throw new DiffusionListRefusal('User not found')
    return { id: user.id, type: 'user_id', mode: item.itemMode, viewed: item.viewed }
  }
  const entity = await trx
    .selectFrom('entities')
    .select(['id', 'enabled'])
    .where(serial === null ? 'entity_id' : 'id', '=', serial ?? item.itemId)
    .executeTakeFirst()
  if (entity?.enabled !== 'Y') throw new DiffusionListRefusal('Entity not found or not active')
  return { id: entity.id, type: 'entity_id', mode: item.itemMode, viewed: item.viewed }
}

/** The entity a redirect names as the new destination (its serial id, as the web client sends it, or its entity_id). */
async function destinationOf(trx: Executor, destination: string | null, userId: number): Promise<string | null> {
  const entities = await trx
    .selectFrom('users_entities as ue')
    .innerJoin('entities as e', 'e.entity_id', 'ue.entity_id')
    .select(['e.id', 'e.entity_id', 'ue.primary_entity'])
    .where('ue.user_id', '=', userId)
    .execute()
  const named =
    destination === null ? undefined : entities.find((e) => String(e.id) === destination || e.entity_id === destination)
  return named?.entity_id ?? null
}

/**
 * Replaces a record's diffusion list (difflist_type `entity_id`) in the caller's transaction, as 20.10 does
 * when a letter is redirected (`ListInstanceController::updateListInstance`), keeping the list it replaces in
 * `listinstance_history`: the new items in order; the assignee (`dest`) becomes `dest_user`; the destination
 * becomes the entity named when the assignee belongs to it, else, when the assignee does not belong to the
 * current destination, the assignee's primary entity. With `onlyRedirectDest`, the items already on the list
 * other than the assignee are kept. Returns the history rows 20.10 writes (assignee changed, copies present);
 * throws DiffusionListRefusal, before or after writing (the caller's transaction then rolls back), as 20.10 refuses.
 */
export async function replaceDiffusionList(
  trx: Executor,
  resId: number,
  redirect: RedirectData,
  addedBy: number,
): Promise<Omit<HistoryRow, 'recordId'>[]> {
  const kept: ResolvedItem[] = redirect.onlyRedirectDest
    ? (
        await trx
          .selectFrom('listinstance')
          .select(['item_id', 'item_type', 'item_mode', 'viewed'])
          .where('res_id', '=', resId)
          .where('difflist_type', '=', 'entity_id')
          .where('item_mode', '!=', 'dest')
          .orderBy('sequence')
          .orderBy('listinstance_id')
          .execute()
      ).map((row) => ({
        id: row.item_id,
        type: row.item_type === 'entity_id' ? 'entity_id' : 'user_id',
        mode: row.item_mode,
        viewed: row.viewed ?? 0,
      }))
    : []
  if (!redirect.items.some((item) => item.itemMode === 'dest')) throw new DiffusionListRefusal('Dest is missing')
  const items = [...kept]
  for (const item of redirect.items) items.push(await resolveItem(trx, item))
  const previous = await trx
    .selectFrom('listinstance')
    .select(['sequence', 'item_id', 'item_type', 'item_mode', 'added_by_user'])
    .where('res_id', '=', resId)
    .where('difflist_type', '=', 'entity_id')
    .orderBy('listinstance_id')
    .execute()
  await trx.deleteFrom('listinstance').where('res_id', '=', resId).where('difflist_type', '=', 'entity_id').execute()
  await trx
    .insertInto('listinstance')
    .values(
      items.map((item, sequence) => ({
        res_id: resId,
        sequence,
        item_id: item.id,
        item_type: item.type,
        item_mode: item.mode,
        added_by_user: addedBy,
        difflist_type: 'entity_id',
        viewed: item.viewed,
      })),
    )
    .execute()
  const history: Omit<HistoryRow, 'recordId'>[] = []
  const assignee = items.find((item) => item.mode === 'dest' && item.type === 'user_id')
  if (assignee) {
    const record = await trx
      .selectFrom('res_letterbox')
      .select(['dest_user', 'destination'])
      .where('res_id', '=', resId)
      .executeTakeFirstOrThrow()
    let destination = await destinationOf(trx, redirect.destination, assignee.id)
    if (destination === null) {
      const entities = await trx
        .selectFrom('users_entities')
        .select(['entity_id', 'primary_entity'])
        .where('user_id', '=', assignee.id)
        .execute()
      const stays = entities.some((e) => e.entity_id === record.destination)
      destination = stays ? null : (entities.find((e) => e.primary_entity === 'Y')?.entity_id ?? null)
    }
    if (record.dest_user !== assignee.id) history.push(DIFFUSION_LIST_HISTORY.assignee)
    await trx
      .updateTable('res_letterbox')
      .set({ dest_user: assignee.id, ...(destination === null ? {} : { destination }) })
      .where('res_id', '=', resId)
      .execute()
  }
  if (items.some((item) => item.mode === 'cc')) history.push(DIFFUSION_LIST_HISTORY.copies)
  await keepPreviousList(trx, resId, previous, addedBy)
  return history
}

/** A diffusion list item as it was before the change. */
type PreviousItem = Pick<ListinstanceTable, 'item_id' | 'item_type' | 'item_mode' | 'added_by_user'> & {
  readonly sequence: number
}

/**
 * 20.10's `listinstance_history`: who replaced the list and when, and in its details each item of the list as it
 * was (its sequence, item, mode and who added it; `viewed` 0, no process date, as 20.10 writes them). A list that
 * was empty leaves the history row alone, as 20.10.
 */
async function keepPreviousList(
  trx: Executor,
  resId: number,
  previous: readonly PreviousItem[],
  changedBy: number,
): Promise<void> {
  const { listinstance_history_id: historyId } = await trx
    .insertInto('listinstance_history')
    .values({ res_id: resId, user_id: changedBy })
    .returning('listinstance_history_id')
    .executeTakeFirstOrThrow()
  if (previous.length === 0) return
  await trx
    .insertInto('listinstance_history_details')
    .values(
      previous.map((item) => ({
        listinstance_history_id: historyId,
        res_id: resId,
        sequence: item.sequence,
        item_id: item.item_id,
        item_type: item.item_type,
        item_mode: item.item_mode,
        added_by_user: item.added_by_user,
        viewed: 0,
        difflist_type: 'entity_id',
        process_date: null,
        process_comment: null,
        requested_signature: false,
        signatory: false,
      })),
    )
    .execute()
}
