import { z } from 'zod'

/** A value with nothing inside: what a key/value map of the interface maps its names to. */
export const FlatScalarSchema = z.union([z.string(), z.number(), z.boolean(), z.null()])

/**
 * `externalId` of records and contacts: the interface's "key/value map" of identifiers in other systems, each a
 * string, number or boolean, never a nested object or list (kept as JSON, searched by key).
 */
export const ExternalIdSchema = z
  .record(z.string(), FlatScalarSchema)
  .describe('External identifiers (key/value map): each value a string, number, boolean or null')

/**
 * One value of `customFields`: a value, or a list of values or of flat objects (a checkbox's choices, the
 * addresses or contacts of 20.10's banAutocomplete and contact fields); nothing nests deeper.
 */
export const CustomFieldValueSchema = z
  .union([FlatScalarSchema, z.array(z.union([FlatScalarSchema, z.record(z.string(), FlatScalarSchema)]))])
  .describe('A value, or a list of values or of flat objects (checkbox, address and contact fields)')
