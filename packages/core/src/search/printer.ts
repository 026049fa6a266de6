import { BARE_FUNCTIONS, type ClauseAst, type MacroArg, type OrderItem, type SubSelect } from './ast.js'
import { SEARCH_VIEW_NAME } from './view-columns.js'

/** Binding strength of each node, PostgreSQL's order: the higher, the tighter. */
const ATOM = 12
function precedence(node: ClauseAst): number {
  switch (node.kind) {
    case 'logical':
      return node.op === 'or' ? 1 : 2
    case 'not':
      return 3
    case 'is':
      return 4
    case 'comparison':
      return 5
    case 'in':
    case 'in-select':
    case 'between':
    case 'like':
      return 6
    case 'concat':
    case 'json':
      return 7
    case 'arithmetic':
      return node.op === '+' || node.op === '-' ? 8 : 9
    case 'negate':
      return 10
    case 'cast':
      return 11
    default:
      return ATOM
  }
}

function quoteString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`
}

/**
 * Where a node is printed: in a sub-select's condition a bare name is a column of its table, so the record's
 * columns are written `res_view_letterbox.name` there.
 */
type Scope = 'clause' | 'subquery'

function printMacroArgIn(arg: MacroArg, scope: Scope): string {
  if (arg.kind === 'string') return quoteString(arg.value)
  if (arg.kind === 'number') return arg.value
  return printNodeIn(arg, ATOM, scope)
}

function printNodeIn(node: ClauseAst, min: number, scope: Scope): string {
  const text = render(node, scope)
  return precedence(node) < min ? `(${text})` : text
}

function printSubSelect(select: SubSelect): string {
  const parts = [`select ${select.distinct ? 'distinct ' : ''}${select.columns.join(', ')} from ${select.table}`]
  if (select.where !== null) parts.push(`where ${printNodeIn(select.where, 0, 'subquery')}`)
  if (select.groupBy.length > 0) parts.push(`group by ${select.groupBy.join(', ')}`)
  if (select.orderBy.length > 0)
    parts.push(`order by ${select.orderBy.map((o) => `${o.column} ${o.direction}`).join(', ')}`)
  if (select.limit !== null) parts.push(`limit ${select.limit}`)
  return parts.join(' ')
}

function render(node: ClauseAst, scope: Scope): string {
  const p = precedence(node)
  const printNode = (child: ClauseAst, min: number) => printNodeIn(child, min, scope)
  const printMacroArg = (arg: MacroArg) => printMacroArgIn(arg, scope)
  switch (node.kind) {
    case 'string':
      return quoteString(node.value)
    case 'number':
      return node.value
    case 'boolean':
      return node.value ? 'true' : 'false'
    case 'null':
      return 'null'
    case 'typed':
      return `${node.type} ${quoteString(node.value)}`
    case 'column':
      return scope === 'subquery' ? `${SEARCH_VIEW_NAME}.${node.name}` : node.name
    case 'table-column':
      return node.name
    case 'in-select': {
      const left =
        node.operands.length === 1
          ? printNode(node.operands[0] as ClauseAst, p + 1)
          : `(${node.operands.map((operand) => printNode(operand, 0)).join(', ')})`
      return `${left} ${node.negated ? 'not ' : ''}in (${printSubSelect(node.select)})`
    }
    case 'logical':
      return `${printNode(node.left, p)} ${node.op} ${printNode(node.right, p + 1)}`
    case 'not':
      return `not ${printNode(node.operand, p)}`
    case 'is':
      return `${printNode(node.operand, p)} is ${node.negated ? 'not ' : ''}${node.test}`
    case 'comparison':
      return `${printNode(node.left, p + 1)} ${node.op} ${printNode(node.right, p + 1)}`
    case 'in':
      return `${printNode(node.operand, p + 1)} ${node.negated ? 'not ' : ''}in (${node.items.map((item) => printNode(item, 0)).join(', ')})`
    case 'between':
      return `${printNode(node.operand, p + 1)} ${node.negated ? 'not ' : ''}between ${printNode(node.low, p + 1)} and ${printNode(node.high, p + 1)}`
    case 'like':
      return `${printNode(node.operand, p + 1)} ${node.negated ? 'not ' : ''}${node.op} ${printNode(node.pattern, p + 1)}`
    case 'concat':
      return `${printNode(node.left, p)} || ${printNode(node.right, p + 1)}`
    case 'json':
      return `${printNode(node.operand, p)} ${node.op} ${printMacroArg(node.key)}`
    case 'arithmetic':
      return `${printNode(node.left, p)} ${node.op} ${printNode(node.right, p + 1)}`
    case 'negate': {
      const operand = printNode(node.operand, p)
      // `--` would start a comment: keep a space between two minus signs.
      return operand.startsWith('-') ? `- ${operand}` : `-${operand}`
    }
    case 'cast':
      return `${printNode(node.operand, p)}::${node.type}`
    case 'call':
      if (BARE_FUNCTIONS.has(node.name)) return node.name
      return `${node.name}(${node.args.map((arg) => printNode(arg, 0)).join(', ')})`
    case 'extract':
      return `extract(${node.field} from ${printNode(node.source, 0)})`
    case 'fulltext':
      return `${node.measure === 'match' ? 'fulltext' : 'fulltext_rank'}(${quoteString(node.query)})`
    case 'macro':
      return node.args === null ? `@${node.name}` : `@${node.name}[${node.args.map(printMacroArg).join(', ')}]`
  }
}

/** Writes a clause back as text that {@link parseClause} reads to the same tree (macros included). */
export function printClause(ast: ClauseAst): string {
  return printNodeIn(ast, 0, 'clause')
}

/** Writes one ordering back as `expr asc|desc [nulls first|last]`. */
export function printOrderItem(item: OrderItem): string {
  return `${printClause(item.expr)} ${item.direction}${item.nulls === null ? '' : ` nulls ${item.nulls}`}`
}
