import {
  CAST_TYPES,
  type CastType,
  type ClauseAst,
  type ComparisonOperator,
  EXTRACT_FIELDS,
  type ExtractField,
  FULLTEXT_FUNCTIONS,
  type FullTextFunctionName,
  MACROS,
  type MacroArg,
  type MacroName,
  type MacroRef,
  type NumberLiteral,
  type OrderItem,
  SEARCH_FUNCTIONS,
  type SearchFunctionName,
  type StringLiteral,
  type SubSelect,
  type SubSelectOrder,
  type TypedLiteralType,
} from './ast.js'
import { MAX_IN_LIST_ITEMS, MAX_NESTING_DEPTH, MAX_SUBQUERIES, MAX_TREE_HEIGHT } from './limits.js'
import {
  type ClauseAuthor,
  hasSubqueryColumn,
  lookupSubqueryTable,
  SUBQUERY_TABLES,
  type SubqueryTableName,
} from './subquery-tables.js'
import { type SearchPart, syntaxError } from './syntax-error.js'
import { type Token, tokenize } from './tokenizer.js'
import { lookupViewColumn, SEARCH_VIEW_NAME, VIEW_COLUMNS } from './view-columns.js'

/** Options of {@link parseClause}. */
export interface ParseClauseOptions {
  /** Accept perimeter macros (`@user_id`, `@subentities[...]`…): only for group security clauses. */
  readonly allowMacros?: boolean
  /**
   * Who wrote the clause: a caller's search clause (the default) may read, in sub-selects, the tables shown to
   * whoever sees the record; an administrator's (basket, group, action condition) every allow-listed table.
   */
  readonly author?: ClauseAuthor
}

/** Words that cannot be a sub-select's alias: its clauses, and SQL's that the language does not take. */
const AFTER_TABLE = new Set([
  'where',
  'group',
  'order',
  'limit',
  'union',
  'intersect',
  'except',
  'having',
  'offset',
  'for',
])
/** Words that would join a second table. */
const JOINS = new Set(['join', 'inner', 'left', 'right', 'full', 'cross', 'natural', 'lateral'])

/** The table a sub-select reads while its clauses are parsed, and the alias it was given. */
interface SubqueryScope {
  readonly table: SubqueryTableName
  readonly alias: string | null
}

/** Words that are syntax, never a column name. */
const RESERVED = new Set([
  'and',
  'or',
  'not',
  'in',
  'like',
  'ilike',
  'between',
  'is',
  'null',
  'true',
  'false',
  'cast',
  'as',
  'from',
  'for',
  'select',
])

const COMPARISONS: Readonly<Record<string, ComparisonOperator>> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
}

const CAST_ALIASES: Readonly<Record<string, CastType>> = { int: 'integer' }

/** Names a select list may hold besides the view's columns (search-request.ts says what each gives). */
const PSEUDO_COLUMNS: ReadonlySet<string> = new Set(['sve_start_date', 'fulltext_excerpt'])

const TYPED_LITERALS: ReadonlySet<string> = new Set<TypedLiteralType>(['date', 'timestamp', 'interval'])

function isCastType(name: string): name is CastType {
  return (CAST_TYPES as readonly string[]).includes(name)
}
function isFunction(name: string): name is SearchFunctionName {
  return Object.hasOwn(SEARCH_FUNCTIONS, name)
}
function isExtractField(name: string): name is ExtractField {
  return (EXTRACT_FIELDS as readonly string[]).includes(name)
}
function isMacro(name: string): name is MacroName {
  return Object.hasOwn(MACROS, name)
}

/** Recursive-descent parser over a token list; the grammar itself is the allow-list. */
class Parser {
  private readonly tokens: Token[]
  private index = 0
  private depth = 0
  /** Token index where a list-valued macro may stand alone (the start of an IN item), or -1. */
  private listSlot = -1
  /** The sub-select being parsed, or null at the clause's level. */
  private scope: SubqueryScope | null = null
  private subqueries = 0

  constructor(
    private readonly source: string,
    private readonly part: SearchPart,
    private readonly allowMacros: boolean,
    private readonly author: ClauseAuthor = 'caller',
  ) {
    this.tokens = tokenize(source, part)
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)] as Token
  }
  private next(): Token {
    const token = this.peek()
    if (this.index < this.tokens.length - 1) this.index++
    return token
  }
  private isSymbol(value: string, offset = 0): boolean {
    const token = this.peek(offset)
    return token.kind === 'symbol' && token.value === value
  }
  private isWord(value: string, offset = 0): boolean {
    const token = this.peek(offset)
    return token.kind === 'ident' && token.value === value
  }
  private acceptSymbol(value: string): boolean {
    if (!this.isSymbol(value)) return false
    this.index++
    return true
  }
  private acceptWord(value: string): boolean {
    if (!this.isWord(value)) return false
    this.index++
    return true
  }
  private expectSymbol(value: string): void {
    if (!this.acceptSymbol(value)) this.unexpected(this.peek())
  }
  private expectWord(value: string): void {
    if (!this.acceptWord(value)) this.unexpected(this.peek())
  }

  /** Refuses `token` as out of place, naming it (or the end of input). */
  unexpected(token: Token): never {
    if (token.kind === 'eof') return syntaxError(this.part, this.source, 'unexpected-end', undefined, token.start)
    if (token.kind === 'ident' && token.value === 'select')
      return syntaxError(this.part, this.source, 'subquery', token.text, token.start)
    return syntaxError(this.part, this.source, 'unexpected-token', token.text, token.start)
  }
  private fail(problem: Parameters<typeof syntaxError>[2], token: Token): never {
    return syntaxError(this.part, this.source, problem, token.text, token.start)
  }

  private enter(token: Token): void {
    this.depth++
    if (this.depth > MAX_NESTING_DEPTH) this.fail('too-deep', token)
  }
  private leave(): void {
    this.depth--
  }

  expectEnd(): void {
    if (this.peek().kind !== 'eof') this.unexpected(this.peek())
  }

  parseExpr(): ClauseAst {
    let left = this.parseAnd()
    while (this.acceptWord('or')) left = { kind: 'logical', op: 'or', left, right: this.parseAnd() }
    return left
  }

  private parseAnd(): ClauseAst {
    let left = this.parseNot()
    while (this.acceptWord('and')) left = { kind: 'logical', op: 'and', left, right: this.parseNot() }
    return left
  }

  private parseNot(): ClauseAst {
    const token = this.peek()
    if (!this.acceptWord('not')) return this.parseIs()
    this.enter(token)
    const operand = this.parseNot()
    this.leave()
    return { kind: 'not', operand }
  }

  private parseIs(): ClauseAst {
    let operand = this.parseComparison()
    for (;;) {
      // PostgreSQL's postfix spellings (`process_date ISNULL`, in 20.10's visa basket).
      if (this.acceptWord('isnull') || this.acceptWord('notnull')) {
        operand = { kind: 'is', negated: this.peek(-1).value === 'notnull', operand, test: 'null' }
        continue
      }
      if (!this.acceptWord('is')) break
      const negated = this.acceptWord('not')
      const token = this.next()
      if (token.kind !== 'ident' || (token.value !== 'null' && token.value !== 'true' && token.value !== 'false'))
        this.unexpected(token)
      operand = { kind: 'is', negated, operand, test: token.value }
    }
    return operand
  }

  private parseComparison(): ClauseAst {
    const left = this.parsePredicate()
    const token = this.peek()
    const op = token.kind === 'symbol' ? COMPARISONS[token.value] : undefined
    if (op === undefined) return left
    this.index++
    return { kind: 'comparison', op, left, right: this.parsePredicate() }
  }

  private parsePredicate(): ClauseAst {
    if (this.startsRowValue()) return this.parseRowIn()
    const operand = this.parseOther()
    const negated =
      this.isWord('not') &&
      ['in', 'like', 'ilike', 'between'].includes(this.peek(1).value) &&
      this.peek(1).kind === 'ident'
    if (negated) this.index++
    if (this.acceptWord('between')) {
      const low = this.parseOther()
      this.expectWord('and')
      return { kind: 'between', negated, operand, low, high: this.parseOther() }
    }
    if (this.isWord('like') || this.isWord('ilike')) {
      const op = this.next().value as 'like' | 'ilike'
      return { kind: 'like', op, negated, operand, pattern: this.parseOther() }
    }
    const inToken = this.peek()
    if (this.acceptWord('in')) {
      this.enter(inToken)
      this.expectSymbol('(')
      if (this.isWord('select')) {
        const node = this.parseInSelect(negated, [operand], inToken)
        this.leave()
        return node
      }
      const items: ClauseAst[] = []
      do {
        const itemToken = this.peek()
        if (items.length === MAX_IN_LIST_ITEMS) this.fail('too-many-items', itemToken)
        this.listSlot = this.index
        items.push(this.parseExpr())
      } while (this.acceptSymbol(','))
      this.expectSymbol(')')
      this.leave()
      return { kind: 'in', negated, operand, items }
    }
    return operand
  }

  /** True at `(a, b …`: a parenthesised list of values (a comma at its own level before its closing parenthesis). */
  private startsRowValue(): boolean {
    if (!this.isSymbol('(')) return false
    let depth = 0
    for (let i = this.index; i < this.tokens.length; i++) {
      const token = this.tokens[i] as Token
      if (token.kind !== 'symbol') continue
      if (token.value === '(' || token.value === '[') depth++
      else if (token.value === ')' || token.value === ']') {
        depth--
        if (depth === 0) return false
      } else if (token.value === ',' && depth === 1) return true
    }
    return false
  }

  /** `(a, b …) [NOT] IN (select x, y …)`: a row of values is only compared with a sub-select's rows. */
  private parseRowIn(): ClauseAst {
    const open = this.next()
    this.enter(open)
    const operands: ClauseAst[] = []
    do operands.push(this.parseExpr())
    while (this.acceptSymbol(','))
    this.expectSymbol(')')
    const negated = this.acceptWord('not')
    const inToken = this.peek()
    if (!this.acceptWord('in') || !this.acceptSymbol('(') || !this.isWord('select')) this.fail('row-value', open)
    const node = this.parseInSelect(negated, operands, inToken)
    this.leave()
    return node
  }

  /** From `select` to the closing parenthesis of `IN (select …)`, checked against the allow-list. */
  private parseInSelect(negated: boolean, operands: ClauseAst[], inToken: Token): ClauseAst {
    const select = this.parseSubSelect(operands.length, inToken)
    this.expectSymbol(')')
    const table = SUBQUERY_TABLES[select.table]
    // Over a table of records' facts, the sub-select answers for the record the clause is tested on, no other.
    if (table.record !== null) {
      const first = operands[0]
      if (first?.kind !== 'column' || first.name !== 'res_id' || select.columns[0] !== table.record)
        this.fail('subquery-record', inToken)
    }
    return { kind: 'in-select', negated, operands, select }
  }

  private parseSubSelect(arity: number, inToken: Token): SubSelect {
    const selectToken = this.next()
    if (this.scope !== null) this.fail('nested-subquery', selectToken)
    if (++this.subqueries > MAX_SUBQUERIES) this.fail('too-many-subqueries', selectToken)
    const distinct = this.acceptWord('distinct')
    const selected: Array<{ qualifier: Token | null; column: Token }> = []
    do selected.push(this.parseQualifiedName())
    while (this.acceptSymbol(','))
    this.expectWord('from')
    const tableToken = this.next()
    if (tableToken.kind !== 'ident') this.unexpected(tableToken)
    const table = lookupSubqueryTable(tableToken.value)
    if (table === undefined) return this.fail('unknown-table', tableToken)
    if (this.author === 'caller' && !SUBQUERY_TABLES[table].callers) this.fail('subquery-table-not-allowed', tableToken)
    this.acceptWord('as')
    let alias: string | null = null
    const aliasToken = this.peek()
    if (aliasToken.kind === 'ident' && !AFTER_TABLE.has(aliasToken.value) && !JOINS.has(aliasToken.value)) {
      alias = aliasToken.value
      this.index++
    }
    const joining = this.peek()
    if (this.isSymbol(',') || (joining.kind === 'ident' && JOINS.has(joining.value)))
      this.fail('subquery-join', joining)
    this.scope = { table, alias }
    const columns = selected.map(({ qualifier, column }) => {
      const name = this.tableColumnName(qualifier, column)
      if (!(SUBQUERY_TABLES[table].selectable as readonly string[]).includes(name)) this.fail('subquery-column', column)
      return name
    })
    if (columns.length !== arity) this.fail('subquery-arity', inToken)
    const where = this.acceptWord('where') ? this.parseExpr() : null
    const groupBy: string[] = []
    if (this.acceptWord('group')) {
      this.expectWord('by')
      do {
        const { qualifier, column } = this.parseQualifiedName()
        groupBy.push(this.tableColumnName(qualifier, column))
      } while (this.acceptSymbol(','))
    }
    const orderBy: SubSelectOrder[] = []
    if (this.acceptWord('order')) {
      this.expectWord('by')
      do {
        const { qualifier, column } = this.parseQualifiedName()
        const name = this.tableColumnName(qualifier, column)
        const direction = this.acceptWord('desc') ? 'desc' : 'asc'
        if (direction === 'asc') this.acceptWord('asc')
        orderBy.push({ column: name, direction })
      } while (this.acceptSymbol(','))
    }
    let limit: string | null = null
    if (this.acceptWord('limit')) {
      const count = this.next()
      if (count.kind !== 'number' || !/^[0-9]+$/.test(count.value)) this.unexpected(count)
      limit = count.value
    }
    this.scope = null
    return { kind: 'select', table, distinct, columns, where, groupBy, orderBy, limit }
  }

  /** `name` or `qualifier.name`, tokens only (checked once the sub-select's table is known). */
  private parseQualifiedName(): { qualifier: Token | null; column: Token } {
    const first = this.next()
    if (first.kind !== 'ident' || RESERVED.has(first.value)) this.unexpected(first)
    if (!this.acceptSymbol('.')) return { qualifier: null, column: first }
    const column = this.next()
    if (column.kind !== 'ident') this.unexpected(column)
    return { qualifier: first, column }
  }

  /** The name of a column of the sub-select's table, written bare or qualified by the table or its alias. */
  private tableColumnName(qualifier: Token | null, column: Token): string {
    const scope = this.scope as SubqueryScope
    if (qualifier !== null && qualifier.value !== scope.table && qualifier.value !== scope.alias)
      this.fail('unknown-table', qualifier)
    if (!hasSubqueryColumn(scope.table, column.value))
      syntaxError(this.part, this.source, 'unknown-column', `${scope.table}.${column.text}`, column.start)
    return column.value
  }

  /** PostgreSQL's "any other operator" level: `||`, `->`, `->>`, left-associative. */
  private parseOther(): ClauseAst {
    let left = this.parseAdditive()
    for (;;) {
      const token = this.peek()
      if (this.acceptSymbol('||')) left = { kind: 'concat', left, right: this.parseAdditive() }
      else if (this.acceptSymbol('->') || this.acceptSymbol('->>')) {
        const op = token.value as '->' | '->>'
        const isJson =
          (left.kind === 'column' && VIEW_COLUMNS.get(left.name) === 'json') ||
          (left.kind === 'json' && left.op === '->')
        if (!isJson) this.fail('json-operand', token)
        const keyToken = this.next()
        let key: StringLiteral | NumberLiteral
        if (keyToken.kind === 'string') key = { kind: 'string', value: keyToken.value }
        else if (keyToken.kind === 'number' && /^[0-9]+$/.test(keyToken.value))
          key = { kind: 'number', value: keyToken.value }
        else return this.fail(keyToken.kind === 'eof' ? 'unexpected-end' : 'json-key', keyToken)
        left = { kind: 'json', op, operand: left, key }
      } else return left
    }
  }

  private parseAdditive(): ClauseAst {
    let left = this.parseMultiplicative()
    for (;;) {
      const op = this.peek().value
      if (this.peek().kind !== 'symbol' || (op !== '+' && op !== '-')) return left
      this.index++
      left = { kind: 'arithmetic', op, left, right: this.parseMultiplicative() }
    }
  }

  private parseMultiplicative(): ClauseAst {
    let left = this.parseUnary()
    for (;;) {
      const op = this.peek().value
      if (this.peek().kind !== 'symbol' || (op !== '*' && op !== '/' && op !== '%')) return left
      this.index++
      left = { kind: 'arithmetic', op, left, right: this.parseUnary() }
    }
  }

  private parseUnary(): ClauseAst {
    const token = this.peek()
    if (!this.acceptSymbol('-')) return this.parsePostfix()
    this.enter(token)
    const operand = this.parseUnary()
    this.leave()
    return { kind: 'negate', operand }
  }

  private parsePostfix(): ClauseAst {
    let operand = this.parsePrimary()
    while (this.acceptSymbol('::')) operand = { kind: 'cast', operand, type: this.parseCastType() }
    return operand
  }

  private parseCastType(): CastType {
    const token = this.next()
    if (token.kind !== 'ident') this.unexpected(token)
    const type = Object.hasOwn(CAST_ALIASES, token.value) ? (CAST_ALIASES[token.value] as CastType) : token.value
    if (!isCastType(type)) this.fail('forbidden-cast', token)
    return type
  }

  private parsePrimary(): ClauseAst {
    const token = this.peek()
    switch (token.kind) {
      case 'string':
        this.index++
        return { kind: 'string', value: token.value }
      case 'number':
        this.index++
        return { kind: 'number', value: token.value }
      case 'macro':
        return this.parseMacroUse()
      case 'symbol':
        return this.parseParenthesised(token)
      case 'ident':
        return this.parseWord(token)
      default:
        return this.unexpected(token)
    }
  }

  private parseParenthesised(token: Token): ClauseAst {
    if (token.value !== '(') this.unexpected(token)
    this.index++
    this.enter(token)
    const inner = this.parseExpr()
    this.expectSymbol(')')
    this.leave()
    return inner
  }

  private parseWord(token: Token): ClauseAst {
    const word = token.value
    const following = this.peek(1)
    if (word === 'true' || word === 'false') {
      this.index++
      return { kind: 'boolean', value: word === 'true' }
    }
    if (word === 'null') {
      this.index++
      return { kind: 'null' }
    }
    if (TYPED_LITERALS.has(word) && following.kind === 'string') {
      this.index += 2
      return { kind: 'typed', type: word as TypedLiteralType, value: following.value }
    }
    if (RESERVED.has(word) && !(word === 'cast' && this.isSymbol('(', 1))) this.unexpected(token)
    if (word === 'current_date' || word === 'current_timestamp') {
      this.index++
      if (this.isSymbol('(') && this.isSymbol(')', 1)) this.index += 2
      return { kind: 'call', name: word, args: [] }
    }
    if (this.isSymbol('(', 1)) {
      this.index += 2
      this.enter(token)
      const node = this.parseCall(token)
      this.expectSymbol(')')
      this.leave()
      return node
    }
    if (this.isSymbol('.', 1)) {
      if (word !== SEARCH_VIEW_NAME) {
        if (this.scope === null) this.fail('unknown-table', token)
        this.index += 2
        const columnToken = this.next()
        if (columnToken.kind !== 'ident') this.unexpected(columnToken)
        return { kind: 'table-column', name: this.tableColumnName(token, columnToken) }
      }
      this.index += 2
      const columnToken = this.peek()
      if (columnToken.kind !== 'ident') this.unexpected(columnToken)
      return this.parseColumn(columnToken)
    }
    if (this.scope !== null) {
      if (RESERVED.has(word)) this.unexpected(token)
      this.index++
      return { kind: 'table-column', name: this.tableColumnName(null, token) }
    }
    return this.parseColumn(token)
  }

  private parseColumn(token: Token): ClauseAst {
    const name = lookupViewColumn(token.value)
    if (name === undefined)
      return RESERVED.has(token.value) ? this.unexpected(token) : this.fail('unknown-column', token)
    this.index++
    return { kind: 'column', name }
  }

  /** The body of `name(` … up to, not including, the closing parenthesis. */
  private parseCall(token: Token): ClauseAst {
    const word = token.value
    if (word === 'cast') {
      const operand = this.parseExpr()
      this.expectWord('as')
      return { kind: 'cast', operand, type: this.parseCastType() }
    }
    if (word === 'extract') {
      const fieldToken = this.next()
      if (fieldToken.kind !== 'ident') this.unexpected(fieldToken)
      if (!isExtractField(fieldToken.value)) this.fail('unknown-extract-field', fieldToken)
      this.expectWord('from')
      return { kind: 'extract', field: fieldToken.value, source: this.parseExpr() }
    }
    if (Object.hasOwn(FULLTEXT_FUNCTIONS, word)) {
      if (this.scope !== null) this.fail('fulltext-in-subquery', token)
      const argument = this.next()
      if (argument.kind !== 'string' || argument.value.trim() === '' || !this.isSymbol(')'))
        this.fail('fulltext-argument', token)
      return { kind: 'fulltext', measure: FULLTEXT_FUNCTIONS[word as FullTextFunctionName], query: argument.value }
    }
    if (!isFunction(word)) return this.fail('unknown-function', token)
    const args: ClauseAst[] = []
    if (!this.isSymbol(')')) {
      args.push(this.parseExpr())
      if (word === 'substring' && this.acceptWord('from')) {
        args.push(this.parseExpr())
        if (this.acceptWord('for')) args.push(this.parseExpr())
      } else while (this.acceptSymbol(',')) args.push(this.parseExpr())
    }
    const arity = SEARCH_FUNCTIONS[word]
    if (args.length < arity.min || args.length > arity.max) this.fail('function-arity', token)
    return { kind: 'call', name: word, args }
  }

  /** A macro where an expression stands: scalar macros anywhere, list macros only as a whole IN item. */
  private parseMacroUse(): ClauseAst {
    const token = this.peek()
    const slot = this.index === this.listSlot
    const macro = this.parseMacro()
    if (MACROS[macro.name].list && !(slot && (this.isSymbol(',') || this.isSymbol(')')))) this.fail('list-macro', token)
    return macro
  }

  private parseMacro(): MacroRef {
    const token = this.next()
    if (!this.allowMacros) this.fail('macro-not-allowed', token)
    const name = token.value
    if (!isMacro(name)) return this.fail('unknown-macro', token)
    if (!MACROS[name].args) return { kind: 'macro', name, args: null }
    const open = this.peek()
    this.expectSymbol('[')
    this.enter(open)
    const args: MacroArg[] = []
    do {
      const argToken = this.peek()
      if (argToken.kind === 'macro') args.push(this.parseMacro())
      else if (argToken.kind === 'string') {
        this.index++
        args.push({ kind: 'string', value: argToken.value })
      } else if (argToken.kind === 'number' && /^[0-9]+$/.test(argToken.value)) {
        this.index++
        args.push({ kind: 'number', value: argToken.value })
      } else this.unexpected(argToken)
    } while (this.acceptSymbol(','))
    this.expectSymbol(']')
    this.leave()
    return { kind: 'macro', name, args }
  }

  /** `expr [ASC|DESC] [NULLS FIRST|LAST]`. */
  parseOrderItem(): OrderItem {
    const expr = this.parseExpr()
    let direction: OrderItem['direction'] = 'asc'
    if (this.acceptWord('desc')) direction = 'desc'
    else this.acceptWord('asc')
    let nulls: OrderItem['nulls'] = null
    if (this.acceptWord('nulls')) {
      if (this.acceptWord('first')) nulls = 'first'
      else {
        this.expectWord('last')
        nulls = 'last'
      }
    }
    return { expr, direction, nulls }
  }

  /** `item (, item)*` where an item is `*`, a view column (optionally `res_view_letterbox.`-prefixed) or `sve_start_date`. */
  parseSelectList(): string[] {
    const names: string[] = []
    do {
      const token = this.peek()
      if (this.acceptSymbol('*')) {
        names.push('*')
        continue
      }
      if (token.kind !== 'ident') this.unexpected(token)
      let columnToken = token
      if (this.isSymbol('.', 1)) {
        if (token.value !== SEARCH_VIEW_NAME) this.fail('unknown-table', token)
        this.index += 2
        columnToken = this.peek()
        if (columnToken.kind !== 'ident') this.unexpected(columnToken)
      }
      if (columnToken.value === 'select') this.unexpected(columnToken)
      const name = PSEUDO_COLUMNS.has(columnToken.value) ? columnToken.value : lookupViewColumn(columnToken.value)
      if (name === undefined) this.fail('unknown-column', columnToken)
      this.index++
      names.push(name)
    } while (this.acceptSymbol(','))
    this.expectEnd()
    return names
  }
}

/**
 * Parses a search clause into its syntax tree. Anything outside the language (sub-queries, comments,
 * unknown columns or functions, macros in a caller clause…) is refused with a bad-request DomainError
 * naming the offending token and its 1-based position. It throws nothing else, whatever the input.
 *
 * @example
 * ```ts
 * import { isDomainError, parseClause, printClause } from '@mailroom/core'
 *
 * const clause = parseClause("status = 'NEW' and (subject ilike '%facture%' or res_id in (1, 2))")
 * console.log(clause.kind, printClause(clause))
 *
 * try {
 *   parseClause('res_id = (select 1)')
 * } catch (error) {
 *   if (isDomainError(error)) console.log(error.code, error.message) // refused, with the token's position
 * }
 * ```
 */
export function parseClause(source: string, options: ParseClauseOptions = {}): ClauseAst {
  const parser = new Parser(source, 'clause', options.allowMacros === true, options.author)
  const ast = parser.parseExpr()
  parser.expectEnd()
  refuseTallTree(ast, source, 'clause')
  return ast
}

/** Child nodes of any syntax node: its values that are nodes, or arrays of nodes. */
function childrenOf(node: object): object[] {
  const children: object[] = []
  for (const value of Object.values(node)) {
    if (Array.isArray(value))
      for (const item of value) if (typeof item === 'object' && item !== null) children.push(item)
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'kind' in value) children.push(value)
  }
  return children
}

/** Refuses a tree taller than MAX_TREE_HEIGHT, measured without recursion (the tree may be very tall). */
function refuseTallTree(root: object, source: string, part: SearchPart): void {
  const pending: Array<[object, number]> = [[root, 1]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, height] = next
    if (height > MAX_TREE_HEIGHT) syntaxError(part, source, 'too-tall')
    for (const child of childrenOf(node)) pending.push([child, height + 1])
  }
}

/** Parses one `orderBy` element: `expr [ASC|DESC] [NULLS FIRST|LAST]` (no macros). */
export function parseOrderItem(source: string): OrderItem {
  const parser = new Parser(source, 'orderBy', false)
  const item = parser.parseOrderItem()
  parser.expectEnd()
  refuseTallTree(item.expr, source, 'orderBy')
  return item
}

/** Tokenizes and checks a select list, returning its raw names (`*`, `sve_start_date` or view columns) in order. */
export function parseSelectNames(source: string): string[] {
  return new Parser(source, 'select', false).parseSelectList()
}
