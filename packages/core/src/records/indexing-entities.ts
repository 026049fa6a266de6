import { type Actor, isRoot } from '../actors/actor.js'
import type { ClauseAst, MacroRef } from '../search/ast.js'
import { expandMacros, type PerimeterEntity } from '../search/expand-macros.js'

const macro = (name: MacroRef['name'], arg?: MacroRef): MacroRef => ({ kind: 'macro', name, args: arg ? [arg] : null })

/** The indexing keywords of a group (reference §7, IndexingController::KEYWORDS) as perimeter macros. */
export const INDEXING_KEYWORD_MACROS: Readonly<Record<string, MacroRef>> = {
  ALL_ENTITIES: macro('all_entities'),
  ENTITIES_JUST_BELOW: macro('immediate_children', macro('my_primary_entity')),
  ENTITIES_BELOW: macro('subentities', macro('my_entities')),
  ALL_ENTITIES_BELOW: macro('subentities', macro('my_primary_entity')),
  ENTITIES_JUST_UP: macro('parent_entity', macro('my_primary_entity')),
  MY_ENTITIES: macro('my_entities'),
  MY_PRIMARY_ENTITY: macro('my_primary_entity'),
  SAME_LEVEL_ENTITIES: macro('sisters_entities', macro('my_primary_entity')),
}

/**
 * The entity codes an actor may index records for: over the groups that can index, the entities listed in
 * their indexation parameters (codes, or integer ids as some installations store them) plus the entities
 * their keywords stand for, expanded against the entity tree with the same macros as group clauses.
 * Null means "any entity" (root users).
 */
export function indexingEntityCodes(actor: Actor, tree: readonly PerimeterEntity[]): ReadonlySet<string> | null {
  if (isRoot(actor)) return null
  const codeById = new Map(tree.map((e) => [e.id, e.entityId]))
  const primary = actor.entities.find((e) => e.primary) ?? actor.entities[0] ?? null
  const context = {
    userId: actor.id,
    login: actor.login,
    email: actor.email,
    entities: actor.entities.map((e) => ({ id: e.id, entityId: e.entityId })),
    primaryEntity: primary ? { id: primary.id, entityId: primary.entityId } : null,
    allEntities: tree,
  }
  const codes = new Set<string>()
  for (const group of actor.groups) {
    if (!group.canIndex) continue
    for (const entity of group.indexingEntities) {
      const code = /^\d+$/.test(entity) ? codeById.get(Number(entity)) : entity
      if (code !== undefined) codes.add(code)
    }
    const macros = group.indexingKeywords.flatMap((k) =>
      Object.hasOwn(INDEXING_KEYWORD_MACROS, k) ? [INDEXING_KEYWORD_MACROS[k] as MacroRef] : [],
    )
    if (macros.length === 0) continue
    const list: ClauseAst = { kind: 'in', negated: false, operand: { kind: 'null' }, items: macros }
    const expanded = expandMacros(list, context)
    if (expanded.kind !== 'in') continue
    for (const item of expanded.items) if (item.kind === 'string') codes.add(item.value)
  }
  return codes
}
