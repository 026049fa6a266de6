import type { CriteriaTerm, CustomFieldMatch } from '@mailroom/core'
import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { searchWords, wordsCondition } from './compile-criteria.js'

/**
 * `indexingCustomField_<id>` (20.10's getCustomFieldsClause): the field's value in the record's `custom_fields`,
 * compared by the field's type. The field id and every value are bound; stored values that are not of the
 * field's type (an installation's history) match no range rather than failing the statement.
 */

type CustomFieldTerm = Extract<CriteriaTerm, { kind: 'customField' }>

/** The field's value as JSON (`->`) and as text (`->>`). */
function fieldOf(fieldId: number) {
  const key = sql`${sql.val(String(fieldId))}::text`
  return {
    json: sql`(${sql.ref('custom_fields')} -> ${key})`,
    text: sql<string>`(${sql.ref('custom_fields')} ->> ${key})`,
  }
}

function anyOf(parts: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`
}

function range(
  value: RawBuilder<unknown>,
  start: RawBuilder<unknown> | null,
  end: RawBuilder<unknown> | null,
): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = []
  if (start !== null) parts.push(sql<SqlBool>`${value} >= ${start}`)
  if (end !== null) parts.push(sql<SqlBool>`${value} <= ${end}`)
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`
}

/** The contacts whose company holds every word of `text` (alias `c`). */
function companyContacts(text: string): RawBuilder<unknown> {
  const words = wordsCondition(sql.ref('c.company'), searchWords(text)) ?? sql<SqlBool>`false`
  return sql`select c.id from contacts c where ${words}`
}

function matchCondition(fieldId: number, match: CustomFieldMatch): RawBuilder<SqlBool> {
  const field = fieldOf(fieldId)
  switch (match.kind) {
    case 'text':
      if (match.exact) return sql<SqlBool>`${field.text} = ${sql.val(match.text)}`
      return wordsCondition(field.text, searchWords(match.text)) ?? sql<SqlBool>`false`
    case 'numberRange': {
      const number = sql`(case when ${field.text} ~ '^-?[0-9]{1,30}([.][0-9]{1,30})?$' then ${field.text}::numeric end)`
      const bound = (n: number | null) => (n === null ? null : sql`${sql.val(String(n))}::numeric`)
      return range(number, bound(match.start), bound(match.end))
    }
    case 'dayRange': {
      // Dates are stored as YYYY-MM-DD (a time may follow): ISO days compare as text, and nothing fails to cast.
      const day = sql`(case when ${field.text} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then left(${field.text}, 10) end)`
      const bound = (d: string | null) => (d === null ? null : sql`${sql.val(d)}::text`)
      return range(day, bound(match.start), bound(match.end))
    }
    case 'oneOf': {
      const parts: RawBuilder<SqlBool>[] = []
      if (match.values.length > 0) parts.push(sql<SqlBool>`${field.text} = any(${sql.val(match.values)}::text[])`)
      if (match.orNull) parts.push(sql<SqlBool>`${field.text} is null`)
      return anyOf(parts)
    }
    case 'holdsAny':
      return anyOf(
        match.values.map((value) => sql<SqlBool>`${field.json} @> jsonb_build_array(${sql.val(value)}::text)`),
      )
    case 'addressIds':
      return sql<SqlBool>`(${field.json} -> 0 ->> 'id') = any(${sql.val(match.ids)}::text[])`
    case 'correspondents':
      return anyOf(
        match.correspondents.map(
          (c) =>
            sql<SqlBool>`${field.json} @> jsonb_build_array(jsonb_build_object('id', ${sql.val(c.id)}::int, 'type', ${sql.val(c.type)}::text))`,
        ),
      )
    case 'company':
      return sql<SqlBool>`exists (select 1 from (${companyContacts(match.text)}) as named
        where ${field.json} @> jsonb_build_array(jsonb_build_object('id', named.id, 'type', 'contact')))`
  }
}

/** The condition of an `indexingCustomField_<id>` term over res_view_letterbox. */
export function compileCustomField(term: CustomFieldTerm): RawBuilder<SqlBool> {
  return matchCondition(term.fieldId, term.match)
}
