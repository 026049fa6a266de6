import { z } from 'zod'
import { fail } from '../errors/domain-error.js'
import {
  type CriteriaTerm,
  type CustomFieldMatch,
  type CustomFieldType,
  type DateColumn,
  FACET_NAMES,
  type FacetExpansion,
  type FacetName,
  type FacetSelection,
  type FlagColumn,
  type SearchCriteria,
} from './criteria.js'

/** Longest text a text criterion may hold (a chrono is at most 255 characters; subjects are searched by words). */
export const MAX_CRITERION_TEXT = 1_000
/** Most items a list criterion may hold. */
export const MAX_CRITERION_ITEMS = 1_000

const text = z.string().trim().min(1).max(MAX_CRITERION_TEXT)
/** An integer id as JSON sends it, or as digits in a string (20.10 passes both to PostgreSQL). */
const integerId = z.union([
  z.number().int().min(0).max(2_147_483_647),
  z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(z.number().max(2_147_483_647)),
])
const list = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(MAX_CRITERION_ITEMS)
/** A calendar day as the date pickers send it. */
const isoDay = z.iso.date()
const range = <T extends z.ZodType>(end: T) =>
  z
    .object({ start: end.nullish(), end: end.nullish() })
    .refine((r) => (r.start ?? null) !== null || (r.end ?? null) !== null)
const correspondent = z.object({ id: integerId, type: z.enum(['contact', 'user', 'entity']) })

/** How a criterion's `values` is checked, what the message says it must be, and the term it becomes. */
interface CriterionRule {
  readonly schema: z.ZodType
  /** Completes "Body <name> values must be …". */
  readonly expected: string
  readonly toTerm: (values: any) => CriteriaTerm
}

const TEXT = 'a non-empty string'

function quotedExact(value: string): { text: string; exact: boolean } {
  // 20.10: a value that starts and ends with a double quote is matched exactly, without its quotes.
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
    return { text: value.replace(/^"+|"+$/g, ''), exact: true }
  return { text: value, exact: false }
}

function dateRule(column: DateColumn): CriterionRule {
  return {
    schema: range(isoDay),
    expected: 'an object {start, end} of dates YYYY-MM-DD (at least one)',
    toTerm: (v) => ({ kind: 'dateRange', column, start: v.start ?? null, end: v.end ?? null }),
  }
}

function flagRule(column: FlagColumn): CriterionRule {
  return {
    schema: list(z.boolean().nullable()),
    expected: 'a non-empty array of true, false or null',
    toTerm: (values: (boolean | null)[]) => ({ kind: 'flags', column, values: [...new Set(values)] }),
  }
}

function entityRule(column: 'destination' | 'initiator'): CriterionRule {
  return {
    schema: list(integerId.nullable()),
    expected: 'a non-empty array of entity ids (integers) or null',
    toTerm: (values: (number | null)[]) => ({
      kind: 'entityIds',
      column,
      ids: values.filter((v): v is number => v !== null),
      orNull: values.includes(null),
    }),
  }
}

function correspondentsRule(mode: 'sender' | 'recipient'): CriterionRule {
  return {
    schema: z.union([list(correspondent), list(text)]),
    expected: 'a non-empty array of {id, type} (type contact, user or entity), or of company names',
    toTerm: (values: ({ id: number; type: 'contact' | 'user' | 'entity' } | string)[]) =>
      typeof values[0] === 'string'
        ? { kind: 'correspondentCompany', mode, text: values[0] }
        : { kind: 'correspondents', mode, correspondents: values as { id: number; type: 'contact' }[] },
  }
}

function linkedRule(link: 'tags' | 'folders', what: string): CriterionRule {
  return {
    schema: list(integerId.nullable()),
    expected: `a non-empty array of ${what} ids (integers) or null`,
    toTerm: (values: (number | null)[]) => ({
      kind: 'linkedIds',
      link,
      ids: values.filter((v): v is number => v !== null),
      orNone: values.includes(null),
    }),
  }
}

const roleItem = z.object({ id: integerId, type: z.enum(['user', 'entity']) })
/** A French department as a postcode starts: digits, as 20.10 keeps only numeric values. */
const department = z.union([z.number().int().min(0).max(99_999).transform(String), z.string().regex(/^\d{1,5}$/)])

function withoutNulls<T>(values: readonly (T | null)[]): T[] {
  return values.filter((value): value is T => value !== null)
}

const ROLE_EXPECTED = 'a non-empty array of {id, type} (type user or entity) or null'

/** `role_<role>`: the role as 20.10 reads it from the name (`role_dest` → `dest`). */
function roleRule(role: string): CriterionRule {
  return {
    schema: list(roleItem.nullable()),
    expected: ROLE_EXPECTED,
    toTerm: (values: ({ id: number; type: 'user' | 'entity' } | null)[]) => ({
      kind: 'role',
      role,
      items: withoutNulls(values),
      orNone: values.includes(null),
    }),
  }
}

/** Registered mail criteria of 20.10, with the values each takes. */
const REGISTERED_MAIL: ReadonlyMap<string, { schema: z.ZodType; expected: string }> = new Map([
  ['registeredMail_reference', { schema: text, expected: TEXT }],
  [
    'registeredMail_issuingSite',
    { schema: list(integerId), expected: 'a non-empty array of issuing site ids (integers)' },
  ],
  [
    'registeredMail_receivedDate',
    { schema: range(isoDay), expected: 'an object {start, end} of dates YYYY-MM-DD (at least one)' },
  ],
  [
    'registeredMail_recipient',
    {
      schema: z.union([list(correspondent), list(text)]),
      expected: 'a non-empty array of {id, type} (type contact, user or entity), or of company names',
    },
  ],
])

/** A choice of a select, radio or checkbox field: text, or a number as text. */
const choice = z.union([text, z.number().transform(String)])
const customInteger = z.union([
  z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^-?\d{1,15}$/)
    .transform(Number),
])
const addressId = z.union([text, z.number().transform(String)])

/** `indexingCustomField_<id>`: the values a field of each type takes, and what they ask of it (20.10's getCustomFieldsClause). */
function customFieldRule(fieldId: number, type: CustomFieldType): CriterionRule | null {
  const term = (match: CustomFieldMatch): CriteriaTerm => ({ kind: 'customField', fieldId, match })
  switch (type) {
    case 'string':
      return { schema: text, expected: TEXT, toTerm: (v: string) => term({ kind: 'text', ...quotedExact(v) }) }
    case 'integer':
      return {
        schema: range(customInteger),
        expected: 'an object {start, end} of integers (at least one)',
        toTerm: (v) => term({ kind: 'numberRange', start: v.start ?? null, end: v.end ?? null }),
      }
    case 'date':
      return {
        schema: range(isoDay),
        expected: 'an object {start, end} of dates YYYY-MM-DD (at least one)',
        toTerm: (v) => term({ kind: 'dayRange', start: v.start ?? null, end: v.end ?? null }),
      }
    case 'select':
    case 'radio':
      return {
        schema: list(choice.nullable()),
        expected: 'a non-empty array of values (strings) or null',
        toTerm: (values: (string | null)[]) =>
          term({ kind: 'oneOf', values: withoutNulls(values), orNull: values.includes(null) }),
      }
    case 'checkbox':
      return {
        schema: list(choice),
        expected: 'a non-empty array of values (strings)',
        toTerm: (values: string[]) => term({ kind: 'holdsAny', values }),
      }
    case 'banAutocomplete':
      return {
        schema: list(z.object({ id: addressId })),
        expected: 'a non-empty array of {id} (address ids)',
        toTerm: (values: { id: string }[]) => term({ kind: 'addressIds', ids: values.map((value) => value.id) }),
      }
    case 'contact':
      return {
        schema: z.union([list(correspondent), list(text)]),
        expected: 'a non-empty array of {id, type} (type contact, user or entity), or of company names',
        toTerm: (values: ({ id: number; type: 'contact' | 'user' | 'entity' } | string)[]) =>
          typeof values[0] === 'string'
            ? term({ kind: 'company', text: values[0] })
            : term({ kind: 'correspondents', correspondents: values as { id: number; type: 'contact' }[] }),
      }
    default:
      // A type this release does not know (an installation's own): no search on it rather than a guess.
      return null
  }
}

/** The criteria of 20.10 Mailroom serves, by name. */
const CRITERIA: ReadonlyMap<string, CriterionRule> = new Map<string, CriterionRule>([
  ['meta', { schema: text, expected: TEXT, toTerm: (v: string) => ({ kind: 'quick', ...quotedExact(v) }) }],
  ['subject', { schema: text, expected: TEXT, toTerm: (v: string) => ({ kind: 'subject', ...quotedExact(v) }) }],
  ['chrono', { schema: text, expected: TEXT, toTerm: (v: string) => ({ kind: 'chrono', text: v }) }],
  ['fulltext', { schema: text, expected: TEXT, toTerm: (v: string) => ({ kind: 'fulltext', text: v }) }],
  ['barcode', { schema: text, expected: TEXT, toTerm: (v: string) => ({ kind: 'barcode', text: v }) }],
  ['notes', { schema: text, expected: TEXT, toTerm: (v: string) => ({ kind: 'notes', text: v }) }],
  [
    'resId',
    {
      schema: range(integerId),
      expected: 'an object {start, end} of record ids (at least one)',
      toTerm: (v) => ({ kind: 'resIdRange', start: v.start ?? null, end: v.end ?? null }),
    },
  ],
  [
    'doctype',
    {
      schema: list(integerId),
      expected: 'a non-empty array of document type ids (integers)',
      toTerm: (values: number[]) => ({ kind: 'inList', column: 'type_id', values, orNull: false }),
    },
  ],
  [
    'category',
    {
      schema: list(text),
      expected: 'a non-empty array of category ids (strings)',
      toTerm: (values: string[]) => ({ kind: 'inList', column: 'category_id', values, orNull: false }),
    },
  ],
  [
    'priority',
    {
      schema: list(text.nullable()),
      expected: 'a non-empty array of priority ids (strings) or null',
      toTerm: (values: (string | null)[]) => ({
        kind: 'inList',
        column: 'priority',
        values: values.filter((v): v is string => v !== null),
        orNull: values.includes(null),
      }),
    },
  ],
  [
    'status',
    {
      schema: list(integerId.nullable()),
      expected: 'a non-empty array of status identifiers (integers, not codes) or null',
      toTerm: (values: (number | null)[]) => ({
        kind: 'statusIdentifiers',
        identifiers: values.filter((v): v is number => v !== null),
        orNull: values.includes(null),
      }),
    },
  ],
  ['destination', entityRule('destination')],
  ['initiator', entityRule('initiator')],
  ['confidentiality', flagRule('confidentiality')],
  ['binding', flagRule('binding')],
  ['retentionFrozen', flagRule('retention_frozen')],
  ['creationDate', dateRule('creation_date')],
  ['documentDate', dateRule('doc_date')],
  ['arrivalDate', dateRule('admission_date')],
  ['departureDate', dateRule('departure_date')],
  ['processLimitDate', dateRule('process_limit_date')],
  ['closingDate', dateRule('closing_date')],
  ['senders', correspondentsRule('sender')],
  ['recipients', correspondentsRule('recipient')],
  [
    'attachment_type',
    {
      schema: list(text),
      expected: 'a non-empty array of attachment type ids (strings)',
      toTerm: (types: string[]) => ({ kind: 'attachmentTypes', types }),
    },
  ],
  [
    'attachment_creationDate',
    {
      schema: range(isoDay),
      expected: 'an object {start, end} of dates YYYY-MM-DD (at least one)',
      toTerm: (v) => ({ kind: 'attachmentDateRange', start: v.start ?? null, end: v.end ?? null }),
    },
  ],
  ['tags', linkedRule('tags', 'tag')],
  ['folders', linkedRule('folders', 'folder')],
  [
    'senderDepartment',
    {
      schema: list(department.nullable()),
      expected: 'a non-empty array of departments (digits, as postcodes start) or null',
      toTerm: (values: (string | null)[]) => ({
        kind: 'senderDepartment',
        departments: [...new Set(withoutNulls(values))],
        orNone: values.includes(null),
      }),
    },
  ],
  [
    'groupSign',
    {
      schema: list(integerId.nullable()),
      expected: 'a non-empty array of group ids (integers) or null',
      toTerm: (values: (number | null)[]) => ({
        kind: 'groupSign',
        groupIds: withoutNulls(values),
        orNone: values.includes(null),
      }),
    },
  ],
])

/** The names of the criteria Mailroom serves (documentation, tests), besides `role_<role>` and `indexingCustomField_<id>`. */
export const CRITERION_NAMES: readonly string[] = [...CRITERIA.keys(), ...REGISTERED_MAIL.keys()]

/** A role as a criterion names it (`role_dest`, `role_cc`, `role_avis_copy`, …). */
const ROLE_NAME = /^role_([A-Za-z0-9_]{1,50})$/
const CUSTOM_FIELD_NAME = /^indexingCustomField_(\d{1,10})$/

/**
 * The rule of a criterion by its name; null when 20.10 has no such criterion. `customFields`: the installation's
 * custom fields by id, as the values an `indexingCustomField_<id>` criterion takes depend on the field's type.
 */
function ruleOf(name: string, customFields: ReadonlyMap<number, CustomFieldType>): CriterionRule | null {
  const rule = CRITERIA.get(name)
  if (rule !== undefined) return rule
  const role = ROLE_NAME.exec(name)?.[1]
  if (role !== undefined) return roleRule(role)
  const registered = REGISTERED_MAIL.get(name)
  if (registered !== undefined) return { ...registered, toTerm: () => ({ kind: 'registeredMail', criterion: name }) }
  const fieldId = CUSTOM_FIELD_NAME.exec(name)?.[1]
  if (fieldId !== undefined) {
    const type = customFields.get(Number(fieldId))
    const rule = type === undefined ? null : customFieldRule(Number(fieldId), type)
    return rule ?? fail('CRITERIA_SEARCH_CUSTOM_FIELD_UNKNOWN', { name })
  }
  return null
}

/** True when a body names a custom field criterion: the caller then reads the custom fields' types first. */
export function namesCustomFields(body: unknown): boolean {
  return typeof body === 'object' && body !== null && Object.keys(body).some((name) => CUSTOM_FIELD_NAME.test(name))
}

/** Checks one facet of `filters`: `{values: [{id, selected}], expand}`; the selected ids narrow the search. */
const facetSchema = z.object({
  values: z
    .array(z.object({ id: z.union([z.string(), z.number(), z.null()]), selected: z.boolean() }).loose())
    .max(MAX_CRITERION_ITEMS),
  expand: z.boolean().optional(),
})

function parseFilters(filters: unknown): { selection: FacetSelection; expansion: FacetExpansion } {
  if (typeof filters !== 'object' || filters === null || Array.isArray(filters))
    fail('CRITERIA_SEARCH_VALUES_INVALID', { name: 'filters', expected: 'an object of facets' })
  const selection: FacetSelection = {}
  const expansion: FacetExpansion = {}
  for (const [name, facet] of Object.entries(filters)) {
    if (!(FACET_NAMES as readonly string[]).includes(name))
      fail('CRITERIA_SEARCH_CRITERION_UNKNOWN', { name: `filters.${name}` })
    const parsed = facetSchema.safeParse(facet)
    if (!parsed.success)
      fail('CRITERIA_SEARCH_VALUES_INVALID', { name: `filters.${name}`, expected: 'an array of {id, selected}' })
    const chosen = parsed.data.values.filter((value) => value.selected).map((value) => value.id)
    if (chosen.length > 0) selection[name as FacetName] = chosen
    if (parsed.data.expand !== undefined) expansion[name as FacetName] = parsed.data.expand
  }
  return { selection, expansion }
}

/**
 * Checks a `POST /rest/search` body and turns it into terms. An absent body is no criterion (every record of
 * the perimeter, as 20.10); anything else that is not an object, an unknown criterion (or custom field), a criterion
 * that is not `{"values": …}` or whose values have the wrong type is refused with a 400 naming it, where 20.10
 * ignores it (or answers 500): a client searching by chrono must never receive every record instead.
 */
export function parseSearchCriteria(
  body: unknown,
  customFields: ReadonlyMap<number, CustomFieldType> = new Map(),
): SearchCriteria {
  if (body === undefined || body === null) return { terms: [], selection: {}, expansion: {} }
  if (typeof body !== 'object' || Array.isArray(body)) fail('CRITERIA_SEARCH_BODY_INVALID')
  const terms: CriteriaTerm[] = []
  let facets: { selection: FacetSelection; expansion: FacetExpansion } = { selection: {}, expansion: {} }
  for (const [name, criterion] of Object.entries(body)) {
    if (name === 'filters') {
      facets = parseFilters(criterion)
      continue
    }
    const rule = ruleOf(name, customFields)
    if (rule === null) fail('CRITERIA_SEARCH_CRITERION_UNKNOWN', { name })
    if (typeof criterion !== 'object' || criterion === null || Array.isArray(criterion) || !('values' in criterion))
      fail('CRITERIA_SEARCH_CRITERION_NOT_OBJECT', { name })
    const parsed = rule.schema.safeParse((criterion as { values: unknown }).values)
    if (!parsed.success) fail('CRITERIA_SEARCH_VALUES_INVALID', { name, expected: rule.expected })
    terms.push(rule.toTerm(parsed.data))
  }
  return { terms, ...facets }
}
