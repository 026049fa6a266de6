import * as z from 'zod'

/** An entity (organisational unit) as stored. `id` is the integer identifier used by records. */
export interface EntityRow {
  readonly id: number
  readonly entity_id: string
  readonly entity_label: string
  readonly short_label: string
  readonly entity_type: string
  readonly enabled: string
  readonly adrs_1: string | null
  readonly adrs_2: string | null
  readonly adrs_3: string | null
  readonly zipcode: string | null
  readonly city: string | null
  readonly country: string | null
  readonly email: string | null
  readonly business_id: string | null
  readonly parent_entity_id: string | null
  readonly ldap_id: string | null
  readonly archival_agency: string | null
  readonly archival_agreement: string | null
  readonly entity_full_name: string | null
}

const optional = (max: number) => z.string().max(max).nullable()

/** The entity of GET /rest/entities/{id}: exactly the fields of the interface's entity table. */
export const EntitySchema = z
  .object({
    entity_id: z.string().max(32),
    entity_label: z.string().max(255),
    short_label: z.string().max(50),
    entity_type: z.string().max(64),
    enabled: z.string().max(1),
    adrs_1: optional(255),
    adrs_2: optional(255),
    adrs_3: optional(255),
    zipcode: optional(32),
    city: optional(255),
    country: optional(255),
    email: optional(255),
    business_id: optional(32),
    parent_entity_id: optional(32),
    ldap_id: optional(255),
    archival_agency: optional(255),
    archival_agreement: optional(255),
    entity_full_name: z.string().nullable(),
  })
  .meta({ id: 'Entity', description: 'An organisational unit' })

/** An entity as the interface shows it. */
export type Entity = z.infer<typeof EntitySchema>

/** Body of a successful entity read. */
export const EntityResponseSchema = z.object({ entity: EntitySchema }).meta({ id: 'EntityResponse' })

/** The path parameter of an entity read: an entity_id string of at most 32 characters. */
export const EntityIdSchema = z.string().min(1).max(32)
