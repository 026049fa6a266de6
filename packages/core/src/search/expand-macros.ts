import type { ClauseAst, MacroArg, MacroRef } from './ast.js'

/** An entity as perimeter macros see it. */
export interface PerimeterEntity {
  /** Serial id (`entities.id`). */
  readonly id: number
  /** Business code (`entities.entity_id`). */
  readonly entityId: string
  readonly parentEntityId: string | null
  readonly entityType: string
  readonly enabled: boolean
}

/** Everything the perimeter macros of a user's group clauses resolve against (reference §7). */
export interface PerimeterContext {
  readonly userId: number
  readonly login: string
  readonly email: string | null
  /** Direct memberships of the user. */
  readonly entities: readonly { readonly id: number; readonly entityId: string }[]
  readonly primaryEntity: { readonly id: number; readonly entityId: string } | null
  /** Every entity, enabled or not: the tree the bracketed macros walk. */
  readonly allEntities: readonly PerimeterEntity[]
}

type Value = string | number

/** Literal node of a macro value; ids are integers, so a number is written as digits (negated if below 0). */
function literal(value: Value | null): ClauseAst {
  if (value === null) return { kind: 'null' }
  if (typeof value === 'string') return { kind: 'string', value }
  const digits: ClauseAst = { kind: 'number', value: String(Math.abs(Math.trunc(value))) }
  return value < 0 ? { kind: 'negate', operand: digits } : digits
}

function unique<T>(values: Iterable<T>): T[] {
  return [...new Set(values)]
}

/** Resolves macros of one context, caching the entity tree lookups. */
class Expander {
  private readonly byCode = new Map<string, PerimeterEntity>()
  private readonly byId = new Map<number, PerimeterEntity>()
  private readonly children = new Map<string, PerimeterEntity[]>()

  constructor(private readonly context: PerimeterContext) {
    for (const entity of context.allEntities) {
      this.byCode.set(entity.entityId, entity)
      this.byId.set(entity.id, entity)
      if (entity.parentEntityId !== null) {
        const siblings = this.children.get(entity.parentEntityId) ?? []
        siblings.push(entity)
        this.children.set(entity.parentEntityId, siblings)
      }
    }
  }

  /** Every descendant of the given entity codes, the entities themselves excluded; a cycle cannot loop. */
  private descendants(codes: readonly string[]): PerimeterEntity[] {
    const seen = new Set<string>(codes)
    const found: PerimeterEntity[] = []
    const queue = [...codes]
    for (let code = queue.shift(); code !== undefined; code = queue.shift()) {
      for (const child of this.children.get(code) ?? []) {
        if (seen.has(child.entityId)) continue
        seen.add(child.entityId)
        found.push(child)
        queue.push(child.entityId)
      }
    }
    return found
  }

  private argValues(args: readonly MacroArg[] | null): Value[] {
    return (args ?? []).flatMap((arg) =>
      arg.kind === 'macro'
        ? this.values(arg).filter((v): v is Value => v !== null)
        : [arg.kind === 'number' ? Number(arg.value) : arg.value],
    )
  }
  private argCodes(args: readonly MacroArg[] | null): string[] {
    return unique(this.argValues(args).map(String))
  }
  private argIds(args: readonly MacroArg[] | null): number[] {
    return unique(
      this.argValues(args).flatMap((v) => (typeof v === 'number' ? [v] : /^[0-9]+$/.test(v) ? [Number(v)] : [])),
    )
  }

  /** The values a macro stands for; a scalar macro with nothing to stand for yields null (matches nothing). */
  values(macro: MacroRef): (Value | null)[] {
    const c = this.context
    switch (macro.name) {
      case 'user_id':
        return [c.userId]
      case 'user':
        return [c.login]
      case 'email':
        return [c.email]
      case 'my_primary_entity':
        return [c.primaryEntity?.entityId ?? null]
      case 'my_primary_entity_id':
        return [c.primaryEntity?.id ?? null]
      case 'my_entities':
        return unique(c.entities.map((e) => e.entityId))
      case 'my_entities_id':
        return unique(c.entities.map((e) => e.id))
      case 'all_entities':
        return c.allEntities.filter((e) => e.enabled).map((e) => e.entityId)
      case 'subentities':
        return this.descendants(this.argCodes(macro.args)).map((e) => e.entityId)
      case 'subentities_id': {
        const codes = this.argIds(macro.args).flatMap((id) => this.byId.get(id)?.entityId ?? [])
        return this.descendants(codes).map((e) => e.id)
      }
      case 'immediate_children':
        return unique(
          this.argCodes(macro.args).flatMap((code) => (this.children.get(code) ?? []).map((e) => e.entityId)),
        )
      case 'parent_entity':
        return unique(this.argCodes(macro.args).flatMap((code) => this.byCode.get(code)?.parentEntityId ?? []))
      case 'sisters_entities':
        return unique(
          this.argCodes(macro.args).flatMap((code) => {
            const parent = this.byCode.get(code)?.parentEntityId
            return parent == null ? [] : (this.children.get(parent) ?? []).map((e) => e.entityId)
          }),
        )
      case 'entity_type': {
        const types = new Set(this.argCodes(macro.args))
        return c.allEntities.filter((e) => types.has(e.entityType)).map((e) => e.entityId)
      }
    }
  }

  expand(node: ClauseAst): ClauseAst {
    switch (node.kind) {
      case 'macro': {
        // Outside an IN list only a single value makes sense; anything else matches nothing.
        const values = this.values(node)
        return literal(values.length === 1 ? (values[0] as Value | null) : null)
      }
      case 'in':
        return {
          ...node,
          operand: this.expand(node.operand),
          items: node.items.flatMap((item) =>
            item.kind === 'macro' ? this.values(item).map(literal) : [this.expand(item)],
          ),
        }
      case 'logical':
      case 'comparison':
      case 'arithmetic':
      case 'concat':
        return { ...node, left: this.expand(node.left), right: this.expand(node.right) }
      case 'not':
      case 'negate':
      case 'cast':
      case 'is':
        return { ...node, operand: this.expand(node.operand) }
      case 'json':
        return { ...node, operand: this.expand(node.operand) }
      case 'call':
        return { ...node, args: node.args.map((arg) => this.expand(arg)) }
      case 'extract':
        return { ...node, source: this.expand(node.source) }
      case 'between':
        return { ...node, operand: this.expand(node.operand), low: this.expand(node.low), high: this.expand(node.high) }
      case 'like':
        return { ...node, operand: this.expand(node.operand), pattern: this.expand(node.pattern) }
      case 'in-select': {
        const { where } = node.select
        return {
          ...node,
          operands: node.operands.map((operand) => this.expand(operand)),
          select: { ...node.select, where: where === null ? null : this.expand(where) },
        }
      }
      default:
        return node
    }
  }
}

/**
 * Replaces every perimeter macro of a group clause by literals of `context`. A list macro in an IN list
 * becomes as many items (possibly none: the compiler turns an empty IN into FALSE, an empty NOT IN into TRUE).
 */
export function expandMacros(ast: ClauseAst, context: PerimeterContext): ClauseAst {
  return new Expander(context).expand(ast)
}
