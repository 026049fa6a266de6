import { z } from 'zod'
import { type CanonicalValue, canonicalJson } from '../journal/canonical-json.js'
import {
  ORGANISATION_SECTIONS,
  type OrganisationDocument,
  type OrganisationDocumentInput,
  SECTION_ITEM_SCHEMAS,
} from './organisation-schema.js'

type Shape = Record<string, z.ZodType>

/** The value each field of an object schema takes when left out (undefined: none), per nesting. */
function defaultsOf(shape: Shape): Map<string, string | undefined> {
  const defaults = new Map<string, string | undefined>()
  for (const [field, schema] of Object.entries(shape)) {
    const parsed = schema.safeParse(undefined)
    defaults.set(
      field,
      parsed.success && parsed.data !== undefined ? canonicalJson(parsed.data as CanonicalValue) : undefined,
    )
  }
  return defaults
}

function shapeOf(schema: z.ZodType): Shape | null {
  const inner = schema instanceof z.ZodDefault ? (schema.def.innerType as z.ZodType) : schema
  return inner instanceof z.ZodObject ? (inner.shape as Shape) : null
}

function compactObject(
  value: Record<string, unknown>,
  shape: Shape,
  defaults: Map<string, string | undefined>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [field, fieldValue] of Object.entries(value)) {
    if (fieldValue === undefined) continue
    const fallback = defaults.get(field)
    if (fallback !== undefined && canonicalJson(fieldValue as CanonicalValue) === fallback) continue
    const nested = shape[field] ? shapeOf(shape[field]) : null
    const isArrayOfObjects = Array.isArray(fieldValue) && shape[field] !== undefined
    if (nested !== null && fieldValue !== null && typeof fieldValue === 'object' && !Array.isArray(fieldValue)) {
      out[field] = compactObject(fieldValue as Record<string, unknown>, nested, defaultsOf(nested))
    } else if (isArrayOfObjects) {
      const element = arrayElementShape(shape[field]!)
      out[field] =
        element === null
          ? fieldValue
          : (fieldValue as Record<string, unknown>[]).map((item) => compactObject(item, element, defaultsOf(element)))
    } else out[field] = fieldValue
  }
  return out
}

function arrayElementShape(schema: z.ZodType): Shape | null {
  const inner = schema instanceof z.ZodDefault ? (schema.def.innerType as z.ZodType) : schema
  return inner instanceof z.ZodArray ? shapeOf(inner.def.element as z.ZodType) : null
}

/**
 * The document without the fields that hold their default value: what a person reads and writes. Reading it
 * back (validateOrganisation) gives the same document, so export -> apply plans no change.
 */
export function compactOrganisation(document: OrganisationDocument): OrganisationDocumentInput {
  const out: Record<string, unknown> = { version: document.version }
  for (const section of ORGANISATION_SECTIONS) {
    const items = document[section] as Record<string, unknown>[] | undefined
    if (items === undefined) continue
    const shape = shapeOf(SECTION_ITEM_SCHEMAS[section])!
    const defaults = defaultsOf(shape)
    out[section] = items.map((item) => compactObject(item, shape, defaults))
  }
  return out as OrganisationDocumentInput
}
