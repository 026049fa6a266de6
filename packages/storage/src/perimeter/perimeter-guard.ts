import { type Actor, basketClauseTree, type ClauseAst, hasPrivilege, parseClause } from '@mailroom/core'
import {
  expandMacros,
  isRoot,
  type PerimeterContext,
  type PerimeterEntity,
  primaryEntityOf,
} from '@mailroom/core/internal'
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import type { Logger } from '../logger.js'
import { compilePerimeterClause } from '../search/compile-clause.js'
import { perimeterBaskets, perimeterContextsOf } from './basket-perimeter.js'
import { isServedByWordsIndex } from './words-index.js'

type Executor = Kysely<Database>

/**
 * How the perimeter's memberships (diffusion lists, followed records, shared folders) are written.
 * - `filter`: `res_id in (select …)`, a hashed set probed for each row PostgreSQL reads: the form for searches
 *   that read many rows.
 * - `index`: `res_id = any(array(select …))`, the ids read once, which the primary key serves. In a search narrowed
 *   by its words, PostgreSQL can then OR index scans — the words with each group's column (the words index carries
 *   them: migration 0023), the words with the typist, the members by primary key — and read only the records the
 *   caller may see (a word in 1.2 % of a million letters: 3,100 records read for the 3,000 bbain may see, against
 *   11,600). Taken only where the database has that index (not the embedded one: PGLITE_EXTENSIONS) and every
 *   alternative of the groups' clauses is served by it (`isServedByWordsIndex`), else `filter`: were PostgreSQL to
 *   filter rows with the array, it would search it from its start for each row.
 */
export type PerimeterShape = 'filter' | 'index'

/** `res_id` among the ids `members` selects, in the given shape. */
function memberOf(members: Expression<unknown>, shape: PerimeterShape): Expression<SqlBool> {
  return shape === 'index'
    ? sql<SqlBool>`(${sql.ref('res_id')} = any(array(${members})))`
    : sql<SqlBool>`(${sql.ref('res_id')} in (${members}))`
}

/**
 * What the privilege `include_folders_and_followed_resources_perimeter` adds, as 20.10's getUserDataClause and
 * hasRightByResId: the records the user follows, and the records in a folder the user owns, or that is shared
 * with one of the user's entities or with every entity (`ALL_ENTITIES`). Sub-queries, so a follow or a folder
 * counts from the next request on though the condition itself is cached.
 */
function followedAndFolders(
  userId: number,
  entityIds: readonly number[],
  shape: PerimeterShape,
): Expression<SqlBool>[] {
  return [
    memberOf(sql`select uf.res_id from users_followed_resources uf where uf.user_id = ${sql.val(userId)}`, shape),
    memberOf(
      sql`select rf.res_id from resources_folders rf join folders f on f.id = rf.folder_id
      where f.user_id = ${sql.val(userId)} or exists (select 1 from entities_folders ef where ef.folder_id = f.id
        and (ef.keyword = 'ALL_ENTITIES' or ef.entity_id = any(${sql.val([...entityIds])}::int[])))`,
      shape,
    ),
  ]
}

/** How long the entity tree is reused between perimeter computations (it changes rarely). */
const ENTITY_TREE_TTL_MS = 5_000

interface EntityTree {
  readonly entities: PerimeterEntity[]
  readonly until: number
}

/**
 * The record perimeter of runtime-contract.md — one rule for search and for per-record checks. Root users
 * see every record; others see the OR of their groups' security clauses (parsed by the clause language,
 * macros expanded against the entity tree, compiled to parameterised SQL), plus the records of their baskets and
 * of the baskets lent to them (basket-perimeter.ts), plus records whose diffusion
 * list names them (as a user or through one of their entities), plus records they typed; with the privilege
 * `include_folders_and_followed_resources_perimeter`, plus the records they follow and those in folders shared
 * with them (20.10).
 */
export class PerimeterGuard {
  readonly #logger: Logger
  #tree: EntityTree | undefined
  #treeLoading: Promise<EntityTree> | undefined
  #perimeterInWordsIndex: Promise<boolean> | undefined
  #conditions = new WeakMap<Actor, { tree: EntityTree; shapes: Map<PerimeterShape, Promise<Expression<SqlBool>>> }>()

  constructor(logger: Logger) {
    this.#logger = logger
  }

  /** Forgets the cached entity tree (after entity changes). */
  invalidate(): void {
    this.#tree = undefined
    this.#treeLoading = undefined
    this.#conditions = new WeakMap()
  }

  /** The group clauses of an actor as one tree (macros expanded); null when no group grants anything. */
  async groupClause(db: Executor, actor: Actor): Promise<ClauseAst | null> {
    const context = await this.macroContext(db, actor)
    const parsed: ProbedClause[] = []
    for (const group of actor.groups) {
      if (!group.securityClause?.trim()) continue
      try {
        parsed.push({
          tree: expandMacros(
            parseClause(group.securityClause, { allowMacros: true, author: 'administrator' }),
            context,
          ),
          refused: (refusal) =>
            this.#logger.warn(
              { group: group.groupId, err: refusal },
              'security clause refused by the database; the group grants no record',
            ),
        })
      } catch (error) {
        // A broken clause typed by an administrator grants nothing rather than failing every request.
        this.#logger.warn({ group: group.groupId, err: error }, 'security clause refused; the group grants no record')
      }
    }
    return anyOf(await clausesTheDatabaseTakes(db, parsed))
  }

  /**
   * The SQL condition over res_view_letterbox columns, or null for root users (no restriction). `index`: written
   * for a search narrowed by its words (`PerimeterShape`); the same records either way.
   */
  async condition(db: Executor, actor: Actor, shape: PerimeterShape = 'filter'): Promise<Expression<SqlBool> | null> {
    if (isRoot(actor)) return null
    // Parsing and expanding the group clauses costs more than the query they guard; an actor value (cached by
    // authentication for a few seconds) keeps its condition as long as the entity tree it was expanded on.
    const tree = await this.#entityTree(db)
    let cached = this.#conditions.get(actor)
    if (!cached || cached.tree !== tree) {
      cached = { tree, shapes: new Map() }
      this.#conditions.set(actor, cached)
    }
    // The building itself is kept, so concurrent requests of one actor wait for one build instead of each
    // starting their own (a renewed actor's first requests arrive together).
    const known = cached.shapes.get(shape)
    if (known) return known
    const building = this.#buildCondition(db, actor, shape)
    const shapes = cached.shapes
    shapes.set(shape, building)
    building.catch(() => {
      if (shapes.get(shape) === building) shapes.delete(shape)
    })
    return building
  }

  /**
   * The clauses of the baskets that widen the actor's perimeter (20.10: a letter in one of my baskets is mine to
   * read), each expanded with its owner's macros (a lent basket's, the colleague's who lent it), as one tree; null
   * when none. A clause the language cannot take grants nothing and is logged, as a group's.
   */
  async basketClause(db: Executor, actor: Actor): Promise<ClauseAst | null> {
    const baskets = await perimeterBaskets(
      db,
      actor.id,
      actor.groups.map((g) => g.id),
    )
    if (baskets.length === 0) return null
    const own = await this.macroContext(db, actor)
    const lenders = [...new Set(baskets.map((b) => b.ownerId).filter((id) => id !== actor.id))]
    const owners = await perimeterContextsOf(db, lenders, own.allEntities)
    owners.set(actor.id, own)
    const parsed: ProbedClause[] = []
    for (const basket of baskets) {
      const owner = owners.get(basket.ownerId)
      if (!basket.clause.trim() || owner === undefined) continue
      try {
        parsed.push({
          tree: basketClauseTree(
            { basketId: basket.basketId, basketName: basket.basketId, clause: basket.clause },
            owner,
          ),
          refused: (refusal) =>
            this.#logger.warn(
              { basket: basket.basketId, owner: basket.ownerId, err: refusal },
              'basket clause refused by the database; the basket widens no perimeter',
            ),
        })
      } catch (error) {
        this.#logger.warn(
          { basket: basket.basketId, owner: basket.ownerId, err: error },
          'basket clause refused; the basket widens no perimeter',
        )
      }
    }
    return anyOf(await clausesTheDatabaseTakes(db, parsed))
  }

  async #buildCondition(db: Executor, actor: Actor, requested: PerimeterShape): Promise<Expression<SqlBool>> {
    const parts: Expression<SqlBool>[] = []
    const groups = await this.groupClause(db, actor)
    const baskets = await this.basketClause(db, actor)
    const indexed =
      requested === 'index' &&
      [groups, baskets].every((clause) => clause === null || isServedByWordsIndex(clause)) &&
      (await this.#wordsIndexCarriesPerimeter(db))
    const shape: PerimeterShape = indexed ? 'index' : 'filter'
    if (groups) parts.push(sql<SqlBool>`(${compilePerimeterClause(groups, shape)})`)
    // After the groups' clauses, before followed letters and folders: 20.10's getUserDataClause.
    if (baskets) parts.push(sql<SqlBool>`(${compilePerimeterClause(baskets, shape)})`)
    parts.push(sql<SqlBool>`(${sql.ref('typist')} = ${actor.id})`)
    const entityIds = actor.entities.map((e) => e.id)
    const byEntity = entityIds.length
      ? sql` or (li.item_type = 'entity_id' and li.item_id = any(${sql.val(entityIds)}::int[]))`
      : sql``
    parts.push(
      memberOf(
        sql`select li.res_id from listinstance li where (li.item_type = 'user_id' and li.item_id = ${actor.id})${byEntity}`,
        shape,
      ),
    )
    if (hasPrivilege(actor, 'include_folders_and_followed_resources_perimeter'))
      parts.push(...followedAndFolders(actor.id, entityIds, shape))
    return sql<SqlBool>`(${sql.join(parts, sql` or `)})`
  }

  /** Whether the records' words index carries the perimeter's columns (migration 0023, where btree_gin exists). */
  #wordsIndexCarriesPerimeter(db: Executor): Promise<boolean> {
    this.#perimeterInWordsIndex ??= sql<{ present: boolean }>`select
        to_regclass('res_letterbox_fulltext_perimeter') is not null as present`
      .execute(db)
      .then(({ rows }) => rows[0]?.present === true)
      .catch((error) => {
        this.#perimeterInWordsIndex = undefined
        throw error
      })
    return this.#perimeterInWordsIndex
  }

  /** The ids among `resIds` that exist and that the actor may access (one query, whatever the count). */
  async allowedAmong(
    db: Executor,
    actor: Actor,
    resIds: readonly number[],
    shape: PerimeterShape = 'filter',
  ): Promise<Set<number>> {
    const ids = [...new Set(resIds)].filter((id) => Number.isSafeInteger(id) && id > 0)
    if (ids.length === 0) return new Set()
    const condition = await this.condition(db, actor, shape)
    const inList = sql<SqlBool>`${sql.ref('res_id')} = any(${sql.val(ids)}::bigint[])`
    const rows = await db
      .selectFrom('res_view_letterbox')
      .select('res_id')
      .where(condition ? sql<SqlBool>`${inList} and ${condition}` : inList)
      .execute()
    return new Set(rows.map((r) => Number(r.res_id)))
  }

  /** True when the record exists and the actor may access it. */
  async allows(db: Executor, actor: Actor, resId: number): Promise<boolean> {
    return (await this.allowedAmong(db, actor, [resId])).has(resId)
  }

  async #entityTree(db: Executor): Promise<EntityTree> {
    const now = Date.now()
    if (this.#tree && this.#tree.until >= now) return this.#tree
    // One read for the requests that find it stale together: they then share one tree, and one perimeter each.
    this.#treeLoading ??= db
      .selectFrom('entities')
      .select(['id', 'entity_id', 'parent_entity_id', 'entity_type', 'enabled'])
      .execute()
      .then((rows) => {
        const entities = rows.map((r) => ({
          id: r.id,
          entityId: r.entity_id,
          parentEntityId: r.parent_entity_id,
          entityType: r.entity_type,
          enabled: r.enabled === 'Y',
        }))
        // The same list when nothing changed: what is compiled against the tree (basket clauses) is kept by it.
        const previous = this.#tree?.entities
        const same = previous !== undefined && JSON.stringify(previous) === JSON.stringify(entities)
        this.#tree = { until: now + ENTITY_TREE_TTL_MS, entities: same ? previous : entities }
        return this.#tree
      })
      .finally(() => {
        this.#treeLoading = undefined
      })
    return this.#treeLoading
  }

  /** What the macros of a clause expand to for `actor` (group clauses, and the baskets `actor` owns). */
  async macroContext(db: Executor, actor: Actor): Promise<PerimeterContext> {
    const tree = await this.#entityTree(db)
    const primary = primaryEntityOf(actor)
    return {
      userId: actor.id,
      login: actor.login,
      email: actor.email,
      entities: actor.entities.map((e) => ({ id: e.id, entityId: e.entityId })),
      primaryEntity: primary ? { id: primary.id, entityId: primary.entityId } : null,
      allEntities: tree.entities,
    }
  }
}

/** A clause of the perimeter, parsed, and what to say when the database refuses it. */
interface ProbedClause {
  readonly tree: ClauseAst
  readonly refused: (refusal: unknown) => void
}

/** The clauses ORed, in their order; null for none. */
function anyOf(trees: readonly ClauseAst[]): ClauseAst | null {
  return trees.reduce<ClauseAst | null>(
    (combined, tree) => (combined ? { kind: 'logical', op: 'or', left: combined, right: tree } : tree),
    null,
  )
}

/**
 * The clauses the database takes, in their order; each refused one said. All of them are tried in one probe, and
 * one by one only when that probe is refused: a clerk's dozen sample baskets cost one round trip when their
 * perimeter is built (every few seconds, when authentication's actor cache renews), not a dozen.
 */
async function clausesTheDatabaseTakes(db: Executor, clauses: readonly ProbedClause[]): Promise<ClauseAst[]> {
  const all = anyOf(clauses.map((c) => c.tree))
  if (all === null) return []
  if (clauses.length > 1 && (await databaseRefusalOf(db, all)) === null) return clauses.map((c) => c.tree)
  const taken: ClauseAst[] = []
  for (const clause of clauses) {
    const refusal = await databaseRefusalOf(db, clause.tree)
    if (refusal === null) taken.push(clause.tree)
    else clause.refused(refusal)
  }
  return taken
}

/**
 * Null when the database takes a basket's clause, else its error. A clause that parses can still be refused when
 * planned (`creation_date > 'pas une date'`): ORed into the perimeter it would fail every read of every user holding
 * the basket, so it is tried once, alone, when the actor's perimeter is built (inside a transaction, under a
 * savepoint, so a refusal leaves the transaction usable).
 */
async function databaseRefusalOf(db: Executor, tree: ClauseAst): Promise<unknown> {
  const probe = sql`select 1 from res_view_letterbox where ${compilePerimeterClause(tree, 'filter')} limit 0`
  if (!db.isTransaction)
    return probe.execute(db).then(
      () => null,
      (error: unknown) => error,
    )
  await sql`savepoint basket_clause_probe`.execute(db)
  try {
    await probe.execute(db)
    await sql`release savepoint basket_clause_probe`.execute(db)
    return null
  } catch (error) {
    await sql`rollback to savepoint basket_clause_probe`.execute(db)
    return error
  }
}
