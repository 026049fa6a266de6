import { BARE_FUNCTIONS, type ClauseAst, type MacroArg, type OrderItem } from './ast.js'

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

function printMacroArg(arg: MacroArg): string {
  if (arg.kind === 'string') return quoteString(arg.value)
  if (arg.kind === 'number') return arg.value
  return printNode(arg, ATOM)
}

function printNode(node: ClauseAst, min: number): string {
  const text = render(node)
  return precedence(node) < min ? `(${text})` : text
}

function render(node: ClauseAst): string {
  const p = precedence(node)
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
      return node.name
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
  return printNode(ast, 0)
}

/** Writes one ordering back as `expr asc|desc [nulls first|last]`. */
export function printOrderItem(item: OrderItem): string {
  return `${printClause(item.expr)} ${item.direction}${item.nulls === null ? '' : ` nulls ${item.nulls}`}`
}
