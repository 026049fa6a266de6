import type {
  ActionMeta,
  ActionNote,
  ActionsStore,
  Actor,
  BasketScope,
  HistoryRow,
  LetterActionPlan,
  LetterLock,
  LetterOutcome,
  OfferedAction,
  RedirectRule,
  RedirectTreeEntity,
  RedirectUser,
  StoredAction,
} from '@mailroom/core'
import type { PerimeterContext } from '@mailroom/core/internal'
import { type Expression, type Kysely, type Selectable, type SqlBool, sql } from 'kysely'
import { basketSelection, basketSelectionOfUser } from '../baskets/basket-selection.js'
import type { ActionsTable, Database } from '../database/schema.js'
import { insertHistoryRows } from '../history/history-rows.js'
import { setRecordsStatus } from '../status/set-records-status.js'
import type { StorageContext } from '../storage-context.js'
import { KyselyUserRepository } from '../users/kysely-user-repository.js'
import { usersOfEntities } from '../users/users-of-entities.js'
import { completeLetters, takeLetters } from './component-work.js'

type Executor = Kysely<Database>

function storedAction(row: Selectable<ActionsTable>): StoredAction {
  const parameters = typeof row.parameters === 'string' ? JSON.parse(row.parameters) : row.parameters
  return {
    id: row.id,
    label: row.label_action ?? '',
    statusId: row.id_status,
    history: row.history === 'Y',
    component: row.component,
    parameters: parameters && typeof parameters === 'object' && !Array.isArray(parameters) ? parameters : {},
  }
}

/** A letter's lock as the store reads it: who holds it while its time is not past. */
const LIVE_LOCKER = sql<number | null>`case when locker_time > clock_timestamp() then locker_user_id end`

/** Core's actions port over kysely: the list's facts, the basket's letters, and each letter's transaction. */
export class KyselyActionsStore implements ActionsStore {
  readonly #context: Pick<StorageContext, 'db' | 'perimeter' | 'logger'>
  readonly #conditions = new WeakMap<BasketScope, Promise<Expression<SqlBool>>>()

  constructor(context: Pick<StorageContext, 'db' | 'perimeter' | 'logger'>) {
    this.#context = context
  }

  async linkedAction(scope: BasketScope, actionId: number): Promise<StoredAction | null> {
    const row = await this.#context.db
      .selectFrom('actions as a')
      .innerJoin('actions_groupbaskets as agb', 'agb.id_action', 'a.id')
      .selectAll('a')
      .where('a.id', '=', actionId)
      .where('agb.group_id', '=', scope.group.groupId)
      .where('agb.basket_id', '=', scope.basket.basketId)
      .executeTakeFirst()
    return row ? storedAction(row) : null
  }

  async action(actionId: number): Promise<StoredAction | null> {
    const row = await this.#context.db.selectFrom('actions').selectAll().where('id', '=', actionId).executeTakeFirst()
    return row ? storedAction(row) : null
  }

  /**
   * The basket's condition for its owner (throws BASKET_CLAUSE_REFUSED for a clause the language cannot take), read
   * once per request: one scope serves every letter of a batch. `reader`: the caller, the owner of their own baskets.
   */
  #holds(scope: BasketScope, reader: Actor): Promise<Expression<SqlBool>> {
    let condition = this.#conditions.get(scope)
    if (!condition) {
      const { basket } = scope
      condition = basketSelectionOfUser(
        this.#context,
        { basketId: basket.basketId, basketName: basket.name, clause: basket.clause },
        scope.ownerId,
        reader,
      )
      this.#conditions.set(scope, condition)
    }
    return condition
  }

  async lettersInBasket(scope: BasketScope, resIds: readonly number[], reader: Actor): Promise<LetterLock[]> {
    const condition = await this.#holds(scope, reader)
    const { rows } = await sql<{ res_id: string | number; locked_by: number | null }>`
      select res_id, ${LIVE_LOCKER} as locked_by from res_view_letterbox
      where res_id = any(${sql.val(resIds)}::bigint[]) and ${condition}`.execute(this.#context.db)
    return rows.map((row) => ({ resId: Number(row.res_id), lockedBy: row.locked_by }))
  }

  async locksOf(resIds: readonly number[]): Promise<LetterLock[]> {
    const { rows } = await sql<{ res_id: string | number; locked_by: number | null }>`
      select res_id, ${LIVE_LOCKER} as locked_by from res_letterbox
      where res_id = any(${sql.val(resIds)}::bigint[])`.execute(this.#context.db)
    return rows.map((row) => ({ resId: Number(row.res_id), lockedBy: row.locked_by }))
  }

  async actOnLetters(
    actor: Actor,
    scope: BasketScope,
    resIds: readonly number[],
    plan: LetterActionPlan,
    meta: ActionMeta,
  ): Promise<LetterOutcome[]> {
    const condition = await this.#holds(scope, actor)
    const ids = sql`${sql.val([...resIds])}::bigint[]`
    return this.#context.db.transaction().execute(async (trx) => {
      // The row locks, in res_id order: two clerks acting on one letter take turns (the second then finds it as the
      // first left it), and two batches sharing letters wait for each other instead of deadlocking.
      await sql`select res_id from res_letterbox where res_id = any(${ids}) order by res_id for update`.execute(trx)
      const { rows } = await sql<{ res_id: string | number; locked_by: number | null }>`
        select res_id, ${LIVE_LOCKER} as locked_by from res_view_letterbox
        where res_id = any(${ids}) and ${condition}`.execute(trx)
      const held = new Map(rows.map((row) => [Number(row.res_id), row.locked_by]))
      const outcomes = new Map<number, LetterOutcome>()
      for (const resId of resIds) {
        const lockedBy = held.get(resId)
        if (lockedBy === undefined)
          outcomes.set(resId, { done: false, error: `Resource ${resId} is no longer in the basket` })
        else if (lockedBy !== null && lockedBy !== actor.id) outcomes.set(resId, { done: false, error: null })
      }
      const take = await takeLetters(
        trx,
        actor,
        resIds.filter((resId) => !outcomes.has(resId)),
        plan,
      )
      for (const [resId, error] of take.refused) outcomes.set(resId, { done: false, error })
      const acted = resIds.filter((resId) => !outcomes.has(resId))
      if (acted.length > 0) await this.#applyPlan(trx, actor, acted, plan, take.history, meta)
      return resIds.map((resId) => outcomes.get(resId) ?? { done: true })
    })
  }

  /**
   * The status and the locks cleared, the component's writes, the notes and the history of the letters acted on,
   * each kind one statement for all of them; the history rows in the letters' order, each letter's as a single letter's
   * were written (its note's, the component's, then the action's line).
   */
  async #applyPlan(
    trx: Executor,
    actor: Actor,
    resIds: readonly number[],
    plan: LetterActionPlan,
    componentHistory: ReadonlyMap<number, readonly Omit<HistoryRow, 'recordId'>[]>,
    meta: ActionMeta,
  ) {
    // The status and the locks cleared in one write; without a status, the locks alone.
    let at: Date
    if (plan.status !== null) {
      const status = await trx
        .selectFrom('status')
        .select(['id', 'is_closing'])
        .where('id', '=', plan.status)
        .executeTakeFirst()
      const target = { id: plan.status, closing: status?.is_closing ?? false }
      at = await setRecordsStatus(trx, resIds, target, { clearLocks: true })
    } else {
      at = (await sql<{ at: Date }>`select clock_timestamp() as at`.execute(trx)).rows[0]!.at
      await trx
        .updateTable('res_letterbox')
        .set({ locker_user_id: null, locker_time: null, modification_date: at })
        .where('res_id', '=', sql<number>`any(${sql.val([...resIds])}::bigint[])`)
        .execute()
    }
    await completeLetters(trx, actor, resIds, plan.work, at)
    const noteIds = plan.note === null ? new Map<number, number>() : await insertNotes(trx, actor, resIds, plan.note)
    const history = resIds.flatMap((resId) => {
      const noteId = noteIds.get(resId)
      return [
        ...(noteId === undefined ? [] : plan.noteHistory(resId, noteId)),
        ...(componentHistory.get(resId) ?? []).map((row) => ({ ...row, recordId: resId })),
        ...(plan.history ? [{ ...plan.history, recordId: resId }] : []),
      ]
    })
    await insertHistoryRows(trx, actor.id, history, meta.remoteIp)
  }

  async offeredActions(scope: BasketScope, usedIn: 'list' | 'page'): Promise<OfferedAction[]> {
    const rows = await this.#context.db
      .selectFrom('actions_groupbaskets as agb')
      .innerJoin('actions as a', 'a.id', 'agb.id_action')
      .select(['a.id', 'a.label_action', 'a.component', 'agb.default_action_list', 'agb.where_clause'])
      .where('agb.group_id', '=', scope.group.groupId)
      .where('agb.basket_id', '=', scope.basket.basketId)
      .where(usedIn === 'list' ? 'agb.used_in_basketlist' : 'agb.used_in_action_page', '=', 'Y')
      .execute()
    return rows.map((row) => ({
      id: row.id,
      label: row.label_action ?? '',
      component: row.component,
      isDefault: row.default_action_list === 'Y',
      whereClause: row.where_clause,
    }))
  }

  async letterMeets(actor: Actor, whereClause: string, resId: number): Promise<boolean> {
    let condition: Expression<SqlBool>
    try {
      condition = await basketSelection(
        this.#context,
        { basketId: 'action', basketName: 'action', clause: whereClause },
        actor,
      )
    } catch (error) {
      // An action's condition the clause language cannot take offers the action on no letter rather than on every one.
      this.#context.logger.warn({ err: error }, 'action condition refused; the action is not offered')
      return false
    }
    const { rows } = await sql`select 1 from res_view_letterbox where res_id = ${resId} and ${condition}`.execute(
      this.#context.db,
    )
    return rows.length > 0
  }

  async categoriesOf(actionIds: readonly number[]): Promise<Map<number, string[]>> {
    const map = new Map<number, string[]>()
    if (actionIds.length === 0) return map
    const rows = await this.#context.db
      .selectFrom('actions_categories')
      .select(['action_id', 'category_id'])
      .where('action_id', 'in', [...actionIds])
      .orderBy('action_id')
      .orderBy('category_id')
      .execute()
    for (const row of rows) map.set(row.action_id, [...(map.get(row.action_id) ?? []), row.category_id])
    return map
  }

  async emptyRequiredFields(resId: number, requiredFields: readonly string[]) {
    const { db } = this.#context
    const record = await db
      .selectFrom('res_letterbox')
      .select(['model_id', 'custom_fields', 'alt_identifier'])
      .where('res_id', '=', resId)
      .executeTakeFirst()
    if (!record) return { chrono: null, fields: [] }
    const shown = new Set(
      (
        await db
          .selectFrom('indexing_models_fields')
          .select('identifier')
          .where('model_id', '=', record.model_id)
          .where('identifier', 'like', 'indexingCustomField\\_%')
          .execute()
      ).map((row) => row.identifier),
    )
    const values = (record.custom_fields ?? {}) as Record<string, unknown>
    const empty = requiredFields
      .filter((field) => shown.has(field))
      .map((field) => field.split('_')[1] ?? '')
      .filter((id) => /^\d{1,9}$/.test(id) && isEmptyValue(values[id]))
      .map(Number)
    if (empty.length === 0) return { chrono: record.alt_identifier, fields: [] }
    const labels = await db.selectFrom('custom_fields').select('label').where('id', 'in', empty).orderBy('id').execute()
    return { chrono: record.alt_identifier, fields: labels.map((row) => row.label) }
  }

  async redirectRules(scope: BasketScope, actionId: number): Promise<RedirectRule[]> {
    const rows = await this.#context.db
      .selectFrom('groupbasket_redirect')
      .select(['redirect_mode', 'entity_id', 'keyword'])
      .where('group_id', '=', scope.group.groupId)
      .where('basket_id', '=', scope.basket.basketId)
      .where('action_id', '=', actionId)
      .orderBy('system_id')
      .execute()
    return rows.map((row) => ({ mode: row.redirect_mode, entityId: row.entity_id, keyword: row.keyword }))
  }

  async macroContextOf(userId: number): Promise<PerimeterContext | null> {
    const { db, perimeter } = this.#context
    const owner = await new KyselyUserRepository(db).loadActor(userId)
    return owner ? perimeter.macroContext(db, owner) : null
  }

  async enabledEntities(): Promise<RedirectTreeEntity[]> {
    const rows = await this.#context.db
      .selectFrom('entities')
      .select(['id', 'entity_id', 'entity_label', 'parent_entity_id'])
      .where('enabled', '=', 'Y')
      // 20.10 orders by the column, where roots hold '' and come first; Mailroom's roots hold null.
      .orderBy(sql`coalesce(parent_entity_id, '')`)
      .orderBy('id')
      .execute()
    return rows.map((row) => ({
      serialId: row.id,
      entityId: row.entity_id,
      label: row.entity_label,
      parentEntityId: row.parent_entity_id,
    }))
  }

  async usersOf(entityIds: readonly string[]): Promise<RedirectUser[]> {
    return usersOfEntities(this.#context.db, entityIds)
  }

  async parameterInt(id: string): Promise<number | null> {
    const row = await this.#context.db
      .selectFrom('parameters')
      .select('param_value_int')
      .where('id', '=', id)
      .executeTakeFirst()
    return row?.param_value_int ?? null
  }
}

/** PHP's `empty()` on a custom field's value. */
function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    value === '0' ||
    value === 0 ||
    value === false ||
    (Array.isArray(value) && value.length === 0)
  )
}

/** One note per letter, the same text and entities (an action's note), in one statement each; the note of each letter. */
async function insertNotes(
  trx: Executor,
  actor: Actor,
  resIds: readonly number[],
  note: ActionNote,
): Promise<Map<number, number>> {
  const rows = await trx
    .insertInto('notes')
    .values(resIds.map((resId) => ({ identifier: resId, user_id: actor.id, note_text: note.content })))
    .returning(['id', 'identifier'])
    .execute()
  const noteOf = new Map(rows.map((row) => [Number(row.identifier), row.id]))
  if (note.entities.length > 0)
    await trx
      .insertInto('note_entities')
      .values(rows.flatMap((row) => note.entities.map((itemId) => ({ note_id: row.id, item_id: itemId }))))
      .execute()
  return noteOf
}
