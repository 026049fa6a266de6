import { type Actor, isRoot } from '@mailroom/core'
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import type { Database } from '../database/schema.js'

type Executor = Kysely<Database>

/**
 * The record perimeter of runtime-contract.md, one rule for search and for per-record checks: root users
 * see every record; others see the OR of their groups' security clauses, plus records whose diffusion list
 * names them (as a user or through one of their entities), plus records they typed.
 * (Interim: group clauses `1=1`/`1=0` only; the clause compiler plugs in here.)
 */
export class PerimeterGuard {
  /** The SQL condition over res_view_letterbox columns (qualified by `alias`), or null for root users. */
  async condition(_db: Executor, actor: Actor, alias = 'res_view_letterbox'): Promise<Expression<SqlBool> | null> {
    if (isRoot(actor)) return null
    const ref = (column: string) => sql.ref(`${alias}.${column}`)
    const parts: Expression<SqlBool>[] = []
    for (const group of actor.groups) {
      const clause = group.securityClause?.replace(/\s+/g, '')
      if (clause === '1=1') return sql<SqlBool>`true`
    }
    parts.push(sql<SqlBool>`${ref('typist')} = ${actor.id}`)
    const entityIds = actor.entities.map((e) => e.id)
    parts.push(
      sql<SqlBool>`${ref('res_id')} in (select li.res_id from listinstance li where (li.item_type = 'user_id' and li.item_id = ${actor.id})${
        entityIds.length ? sql` or (li.item_type = 'entity_id' and li.item_id in (${sql.join(entityIds)}))` : sql``
      })`,
    )
    return sql<SqlBool>`(${sql.join(parts, sql` or `)})`
  }

  /** The ids among `resIds` that exist and that the actor may access. */
  async allowedAmong(db: Executor, actor: Actor, resIds: readonly number[]): Promise<Set<number>> {
    const ids = [...new Set(resIds)].filter((id) => Number.isSafeInteger(id) && id > 0)
    if (ids.length === 0) return new Set()
    const condition = await this.condition(db, actor)
    const rows = await db
      .selectFrom('res_view_letterbox')
      .select('res_id')
      .where((eb: ExpressionBuilder<Database, 'res_view_letterbox'>) => {
        const inList = eb('res_id', '=', sql<number>`any(${sql.val(ids)}::bigint[])`)
        return condition ? eb.and([inList, condition]) : inList
      })
      .execute()
    return new Set(rows.map((r) => Number(r.res_id)))
  }
}
