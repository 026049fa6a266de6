import { z } from 'zod'

/** The fields the organisation document's sections are made of. */

/** PostgreSQL text holds no NUL character: refused here rather than by the database. */
export const storable = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !value.includes('\u0000'), 'must not contain a NUL character')
export const text = (max: number) => storable(max).min(1)
export const optionalText = (max: number) => storable(max).nullable().default(null)
/** Codes as Maarch stores them (entity_id, group_id, status id): letters, digits and _ - . */
export const code = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, "_", "-" and "." only')
export const serial = z.number().int().positive().max(2147483647)

/** The indexing keywords of a group (reference §7): entities named relative to the indexing user. */
export const INDEXING_KEYWORDS = [
  'ALL_ENTITIES',
  'ENTITIES_JUST_BELOW',
  'ENTITIES_BELOW',
  'ALL_ENTITIES_BELOW',
  'ENTITIES_JUST_UP',
  'MY_ENTITIES',
  'MY_PRIMARY_ENTITY',
  'SAME_LEVEL_ENTITIES',
] as const
