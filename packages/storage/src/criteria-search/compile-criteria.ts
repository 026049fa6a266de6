import type { CriteriaTerm, FacetName, FacetSelection, SearchOrder, SearchPaging } from '@mailroom/core'
import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { naturalChrono } from '../search/chrono-order.js'
import type { FullTextSql } from '../search/compile-clause.js'
import { compileCustomField } from './compile-custom-fields.js'
import { compileDiffusionTerm } from './compile-diffusion-criteria.js'
import { containing, folded, searchWords, wordsCondition } from './words-condition.js'

/**
 * Compiles the terms of a `POST /rest/search` body to SQL over res_view_letterbox. Caller text only ever
 * travels as a bound value (`sql.val`); column names come from the terms' typed unions, never from the body.
 */

/** The chrono as 20.10 compares it (spaces removed): the expression migration 0015 indexes with pg_trgm. */
export const CHRONO_WITHOUT_SPACES = sql<string>`replace(${sql.ref('alt_identifier')}, ' ', '')`

function orNull(condition: RawBuilder<SqlBool> | null, column: string, withNull: boolean): RawBuilder<SqlBool> {
  const isNull = sql<SqlBool>`${sql.ref(column)} is null`
  if (condition === null) return withNull ? isNull : sql<SqlBool>`false`
  return withNull ? sql<SqlBool>`(${condition} or ${isNull})` : condition
}

function anyOf(column: string, values: readonly (string | number)[], type: 'int' | 'text'): RawBuilder<SqlBool> | null {
  if (values.length === 0) return null
  const array =
    type === 'int' ? sql`${sql.val(values.map(Number))}::int[]` : sql`${sql.val(values.map(String))}::text[]`
  return sql<SqlBool>`${sql.ref(column)} = any(${array})`
}

function dayStart(day: string): RawBuilder<unknown> {
  return sql`${sql.val(day)}::date`
}

/** The records a correspondent term finds. */
function correspondentRecords(term: Extract<CriteriaTerm, { kind: 'correspondents' | 'correspondentCompany' }>) {
  if (term.kind === 'correspondents') {
    const pairs = sql.join(
      term.correspondents.map((c) => sql`(rc.item_id = ${sql.val(c.id)}::int and rc.type = ${sql.val(c.type)})`),
      sql` or `,
    )
    return sql`select rc.res_id from resource_contacts rc where (${pairs}) and rc.mode = ${sql.val(term.mode)}`
  }
  const words = wordsCondition(sql.ref('c.company'), searchWords(term.text)) ?? sql`false`
  return sql`select rc.res_id from resource_contacts rc join contacts c on c.id = rc.item_id
    where rc.type = 'contact' and rc.mode = ${sql.val(term.mode)} and ${words}`
}

/** The records a tag or folder term finds. */
function linkedRecords(term: Extract<CriteriaTerm, { kind: 'linkedIds' }>) {
  const ids = sql`${sql.val(term.ids)}::int[]`
  return term.link === 'tags'
    ? sql`select res_id from resources_tags where tag_id = any(${ids})`
    : sql`select res_id from resources_folders where folder_id = any(${ids})`
}

function linkedCondition(term: Extract<CriteriaTerm, { kind: 'linkedIds' }>): RawBuilder<SqlBool> {
  const table = term.link === 'tags' ? sql`resources_tags` : sql`resources_folders`
  const none = sql<SqlBool>`${sql.ref('res_id')} not in (select res_id from ${table})`
  const some = sql<SqlBool>`${sql.ref('res_id')} in (${linkedRecords(term)})`
  if (term.ids.length === 0) return term.orNone ? none : sql<SqlBool>`false`
  return term.orNone ? sql<SqlBool>`(${some} or ${none})` : some
}

/** The number a chrono ends with, when it is long enough to be rarer than the rest (`123456` of `MAARCH/2025A/123456`). */
export function chronoNumberHint(chrono: string): string | null {
  const number = /(\d{3,})\D*$/.exec(chrono)?.[1]
  return number !== undefined && number !== chrono ? number : null
}

/**
 * `chrono ilike '%v%'` (spaces removed), as 20.10. The pg_trgm index answers a pattern by intersecting the
 * records of each of its trigrams, and the trigrams of `MAARCH/2025A/` are in every record: given the whole
 * chrono it reads every record's entry several times over. So when the chrono ends with a number of 3 digits
 * or more, the index is asked for that number only (its trigrams are rare) and the whole pattern is checked on
 * the few records found, written so that the planner cannot take it to the index (`|| ''`). Same records.
 */
function chronoCondition(chrono: string, column: RawBuilder<unknown> = CHRONO_WITHOUT_SPACES): RawBuilder<SqlBool> {
  const hint = chronoNumberHint(chrono)
  if (hint === null) return sql<SqlBool>`${column} ilike ${containing(chrono)}`
  return sql<SqlBool>`(${column} ilike ${containing(hint)} and (${column} || '') ilike ${containing(chrono)})`
}

/** Where a notes term looks (null: this database has no notes table yet, so no note matches). */
export interface NotesSource {
  /** The caller's visible notes holding `text`, as a query of their record ids. */
  readonly recordsWithNote: (text: string) => RawBuilder<unknown>
}

/** What the terms may read besides the records: tables other capabilities add, once they exist. */
export interface TermSources {
  readonly notes: NotesSource | null
  /** `res_attachments` exists: text criteria also look at attachments, as 20.10. */
  readonly attachments: boolean
  /** The full-text index's matching: the database's own, or an external index's candidates. */
  readonly fullText: FullTextSql
}

/** The records an attachment condition (alias `a`) finds among attachments 20.10 searches (sent, signed, frozen). */
function recordsWithAttachment(condition: RawBuilder<SqlBool>): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref('res_id')} in (select a.res_id_master from res_attachments a
    where ${condition} and a.status in ('TRA', 'A_TRA', 'FRZ'))`
}

/**
 * What an attachment (alias `a`) must hold for a text term to find its record, as 20.10 searches attachments;
 * null for the other terms (and for a quick search without a word of 2 characters).
 */
function attachmentPart(term: CriteriaTerm): RawBuilder<SqlBool> | null {
  switch (term.kind) {
    case 'quick': {
      if (term.exact) {
        const value = sql.val(term.text)
        return sql<SqlBool>`(a.title = ${value} or a.identifier = ${value})`
      }
      const word = term.text.replaceAll(' ', '')
      if (word.length < 2) return null
      const matches = (column: string) => sql<SqlBool>`${folded(sql.ref(column))} ilike ${folded(containing(word))}`
      return sql<SqlBool>`(${matches('a.title')} or ${matches('a.identifier')})`
    }
    case 'subject':
      return term.exact
        ? sql<SqlBool>`a.title = ${sql.val(term.text)}`
        : sql<SqlBool>`${folded(sql.ref('a.title'))} ilike ${folded(containing(term.text))}`
    case 'chrono':
      // The attachment's chrono with its spaces, as 20.10 compares it.
      return chronoCondition(term.text, sql.ref('a.identifier'))
    default:
      return null
  }
}

/** `record or one of its attachments`, the attachment part only where attachments exist. */
function orAttachment(record: RawBuilder<SqlBool>, term: CriteriaTerm, sources: TermSources): RawBuilder<SqlBool> {
  const part = sources.attachments ? attachmentPart(term) : null
  return part === null ? record : sql<SqlBool>`(${record} or ${recordsWithAttachment(part)})`
}

/**
 * True for a record one of whose attachments the text terms find (20.10's `inAttachments`, computed for the
 * records of the page); null when no term looks at attachments.
 */
export function attachmentMatch(terms: readonly CriteriaTerm[], sources: TermSources): RawBuilder<SqlBool> | null {
  if (!sources.attachments) return null
  const parts = terms.flatMap((term) => {
    const part = attachmentPart(term)
    return part === null ? [] : [recordsWithAttachment(part)]
  })
  return parts.length === 0 ? null : sql<SqlBool>`(${sql.join(parts, sql` or `)})`
}

function quickCondition(term: Extract<CriteriaTerm, { kind: 'quick' }>, sources: TermSources): RawBuilder<SqlBool> {
  const id = /^\d{1,10}$/.test(term.text)
    ? sql<SqlBool>` or ${sql.ref('res_id')} = ${sql.val(Number(term.text))}`
    : sql``
  if (term.exact) {
    const value = sql.val(term.text)
    const record = sql<SqlBool>`(${sql.ref('subject')} = ${value} or ${CHRONO_WITHOUT_SPACES} = ${sql.val(term.text.replaceAll(' ', ''))} or ${sql.ref('barcode')} = ${value}${id})`
    return orAttachment(record, term, sources)
  }
  // 20.10 removes every space, then matches the one word against subject, chrono and barcode.
  const word = term.text.replaceAll(' ', '')
  if (word.length < 2) return sql<SqlBool>`(false${id})`
  const matches = (column: RawBuilder<unknown>) => sql<SqlBool>`${folded(column)} ilike ${folded(containing(word))}`
  const record = sql<SqlBool>`(${sql.join([sql.ref('subject'), CHRONO_WITHOUT_SPACES, sql.ref('barcode')].map(matches), sql` or `)}${id})`
  return orAttachment(record, term, sources)
}

/** One term as a condition over res_view_letterbox. */
export function compileTerm(term: CriteriaTerm, sources: TermSources): RawBuilder<SqlBool> {
  const { notes } = sources
  switch (term.kind) {
    case 'quick':
      return quickCondition(term, sources)
    case 'fulltext':
      // The words of every file of the record, attachments included, as a condition the planner can AND with
      // the perimeter's (compile-clause.ts, databaseFullText).
      return sql<SqlBool>`${sources.fullText.filter(term.text)}`
    case 'subject': {
      if (term.exact) return orAttachment(sql<SqlBool>`${sql.ref('subject')} = ${sql.val(term.text)}`, term, sources)
      // Every word in the subject, or the whole text in an attachment's title; no word of 2 characters: no record.
      return orAttachment(
        wordsCondition(sql.ref('subject'), searchWords(term.text)) ?? sql<SqlBool>`false`,
        term,
        sources,
      )
    }
    case 'chrono': {
      const chrono = chronoCondition(term.text.replaceAll(' ', ''))
      const part = sources.attachments ? attachmentPart(term) : null
      if (part === null) return chrono
      // A union rather than an OR, so that the records' part keeps its index.
      return sql<SqlBool>`${sql.ref('res_id')} in (select res_id from res_letterbox where ${chrono}
        union all select a.res_id_master from res_attachments a where ${part} and a.status in ('TRA', 'A_TRA', 'FRZ'))`
    }
    case 'attachmentTypes':
      if (!sources.attachments) return sql<SqlBool>`false`
      return recordsWithAttachment(sql<SqlBool>`a.attachment_type = any(${sql.val(term.types)}::text[])`)
    case 'attachmentDateRange': {
      if (!sources.attachments) return sql<SqlBool>`false`
      const parts: RawBuilder<SqlBool>[] = []
      if (term.start !== null) parts.push(sql<SqlBool>`a.creation_date >= ${dayStart(term.start)}`)
      if (term.end !== null) parts.push(sql<SqlBool>`a.creation_date < ${dayStart(term.end)} + 1`)
      return recordsWithAttachment(sql<SqlBool>`(${sql.join(parts, sql` and `)})`)
    }
    case 'barcode':
      return sql<SqlBool>`${sql.ref('barcode')} ilike ${containing(term.text)}`
    case 'resIdRange': {
      const parts: RawBuilder<SqlBool>[] = []
      if (term.start !== null) parts.push(sql<SqlBool>`${sql.ref('res_id')} >= ${sql.val(term.start)}`)
      if (term.end !== null) parts.push(sql<SqlBool>`${sql.ref('res_id')} <= ${sql.val(term.end)}`)
      return sql<SqlBool>`(${sql.join(parts, sql` and `)})`
    }
    case 'inList':
      return orNull(
        anyOf(term.column, term.values, term.column === 'type_id' ? 'int' : 'text'),
        term.column,
        term.orNull,
      )
    case 'statusIdentifiers': {
      const inList =
        term.identifiers.length === 0
          ? null
          : sql<SqlBool>`${sql.ref('status')} in (select id from status where identifier = any(${sql.val(term.identifiers)}::int[]))`
      return orNull(inList, 'status', term.orNull)
    }
    case 'entityIds': {
      const inList =
        term.ids.length === 0
          ? null
          : sql<SqlBool>`${sql.ref(term.column)} in (select entity_id from entities where id = any(${sql.val(term.ids)}::int[]))`
      return orNull(inList, term.column, term.orNull)
    }
    case 'flags': {
      const parts: RawBuilder<SqlBool>[] = []
      const column = sql.ref(term.column)
      for (const value of term.values) {
        if (value === null) parts.push(sql<SqlBool>`${column} is null`)
        else if (term.column === 'confidentiality') parts.push(sql<SqlBool>`${column} = ${sql.val(value ? 'Y' : 'N')}`)
        else parts.push(sql<SqlBool>`${column} = ${sql.val(value)}`)
      }
      return sql<SqlBool>`(${sql.join(parts, sql` or `)})`
    }
    case 'dateRange': {
      const parts: RawBuilder<SqlBool>[] = []
      const column = sql.ref(term.column)
      if (term.start !== null) parts.push(sql<SqlBool>`${column} >= ${dayStart(term.start)}`)
      // The end of the range is the end of its day: before the next day starts.
      if (term.end !== null) parts.push(sql<SqlBool>`${column} < ${dayStart(term.end)} + 1`)
      return sql<SqlBool>`(${sql.join(parts, sql` and `)})`
    }
    case 'correspondents':
    case 'correspondentCompany':
      return sql<SqlBool>`${sql.ref('res_id')} in (${correspondentRecords(term)})`
    case 'linkedIds':
      return linkedCondition(term)
    case 'notes':
      return notes === null
        ? sql<SqlBool>`false`
        : sql<SqlBool>`${sql.ref('res_id')} in (${notes.recordsWithNote(term.text)})`
    case 'role':
    case 'groupSign':
    case 'senderDepartment':
      return compileDiffusionTerm(term)
    case 'registeredMail':
      // Mailroom keeps no registered mail: 20.10 with none answers its empty answer (preQuery), never a record.
      return sql<SqlBool>`false`
    case 'customField':
      return compileCustomField(term)
  }
}

/** The columns of res_view_letterbox the facets group by, and how a selection in each narrows. */
export const FACET_COLUMNS: Readonly<Record<Exclude<FacetName, 'folders'>, string>> = {
  priorities: 'priority',
  categories: 'category_id',
  statuses: 'status',
  doctypes: 'type_id',
  entities: 'destination',
}

function integers(values: readonly (string | number | null)[]): number[] {
  return values.map(Number).filter((v) => Number.isSafeInteger(v) && v >= 0 && v <= 2_147_483_647)
}

/** The condition of one facet's selection (20.10's getFiltersClause). */
export function facetCondition(facet: FacetName, selected: readonly (string | number | null)[]): RawBuilder<SqlBool> {
  if (facet === 'folders') {
    return sql<SqlBool>`${sql.ref('res_id')} in (select res_id from resources_folders where folder_id = any(${sql.val(integers(selected))}::int[]))`
  }
  const column = FACET_COLUMNS[facet]
  if (facet === 'doctypes') return anyOf(column, integers(selected), 'int') ?? sql<SqlBool>`false`
  const texts = selected.filter((v): v is string | number => v !== null).map(String)
  const withNull = facet !== 'categories' && selected.includes(null)
  return orNull(anyOf(column, texts, 'text'), column, withNull)
}

/** Every facet selection ANDed, but `except`'s own (a facet counts the matches of the other facets' choice). */
export function selectionCondition(selection: FacetSelection, except?: FacetName): RawBuilder<SqlBool> {
  const parts = Object.entries(selection)
    .filter(([facet]) => facet !== except)
    .map(([facet, selected]) => facetCondition(facet as FacetName, selected ?? []))
  return parts.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`(${sql.join(parts, sql` and `)})`
}

/** A search's sort: its keys, selected as columns of the matches, and the ordering over those columns. */
export interface OrderColumns {
  /** `key as order_1, …`, for the select list of the matches. */
  readonly select: RawBuilder<unknown>
  /** `order_1 desc, …, res_id desc`, over the matches. */
  readonly orderBy: RawBuilder<unknown>
}

/**
 * The sort of 20.10's `order` names, computed once per match where the matches are read, so that the listing
 * sorts what was read instead of reading the records again; every order ends with the record id so pages
 * never overlap.
 */
export function orderColumns(paging: Pick<SearchPaging, 'order' | 'direction'>): OrderColumns {
  const direction = paging.direction === 'DESC' ? sql`desc` : sql`asc`
  const keys: Record<SearchOrder, RawBuilder<unknown>[]> = {
    // order_alphanum of 20.10, as a basket's list sorts chronos.
    chrono: [naturalChrono(sql.ref('alt_identifier'))],
    typeLabel: [sql.ref('type_label')],
    creationDate: [sql.ref('creation_date')],
    category: [sql.ref('category_id')],
    destUser: [
      sql`(select u.lastname from users u where u.id = ${sql.ref('dest_user')})`,
      sql`(select u.firstname from users u where u.id = ${sql.ref('dest_user')})`,
    ],
    processLimitDate: [sql.ref('process_limit_date')],
    entityLabel: [sql.ref('entity_label')],
    status: [sql.ref('status')],
    subject: [sql.ref('subject')],
    priority: [sql.ref('priority')],
  }
  const chosen = keys[paging.order ?? 'creationDate']
  const column = (i: number) => sql.id(`order_${i + 1}`)
  return {
    select: sql.join(chosen.map((key, i) => sql`${key} as ${column(i)}`)),
    orderBy: sql.join([
      ...chosen.map((_, i) => sql`${column(i)} ${direction}`),
      sql`${sql.ref('res_id')} ${direction}`,
    ]),
  }
}
