import { z } from 'zod'

/**
 * Answers of the reference-data reads of Maarch Courrier 20.10 (issue 32): field names, types and nesting as
 * 20.10 sends them, so clients written against it (the capture tool, the console) read them unchanged.
 */

/** Path of the reads by integer id (`/doctypes/types/{id}`, `/indexingModels/{id}`): checked by the use case. */
export const IntegerIdPathSchema = z
  .object({ id: z.string().describe('An integer identifier; anything else answers 400 Route id is not an integer') })
  .meta({ description: 'The item addressed by its integer identifier' })

const jsTreeState = z.object({ opened: z.boolean(), disabled: z.boolean().optional() })

/** One entity of `GET /rest/entities`, as jsTree reads it. */
export const EntityTreeNodeSchema = z
  .object({
    id: z.string().describe('The entity_id'),
    entity_id: z.string(),
    entity_label: z.string(),
    parent_entity_id: z.string().describe('Empty for a top-level entity'),
    parent_id: z.number().int().nullable().describe("The parent's serial id"),
    serialId: z.number().int(),
    parentSerialId: z.union([z.number().int(), z.literal('#')]),
    parent: z.string().describe("The parent's entity_id, or # at the top"),
    icon: z.string(),
    allowed: z.boolean().describe("One of the caller's entities or below them (root: every entity)"),
    state: jsTreeState,
    text: z.string(),
  })
  .meta({ id: 'EntityTreeNode' })

/** Body of `GET /rest/entities`. */
export const EntityListResponseSchema = z
  .object({ entities: z.array(EntityTreeNodeSchema) })
  .meta({ id: 'EntityList', description: 'Every enabled entity, parents before children' })
/** Body of `GET /rest/entities`. */
export type EntityListResponse = z.infer<typeof EntityListResponseSchema>
/** One entity of `GET /rest/entities`. */
export type EntityTreeNode = z.infer<typeof EntityTreeNodeSchema>

/** A document type as 20.10 stores it (its retention columns are answered empty: Mailroom keeps none). */
export const DoctypeSchema = z
  .object({
    coll_id: z.string(),
    type_id: z.number().int(),
    description: z.string(),
    enabled: z.union([z.boolean(), z.string()]).describe('Y/N in the tree, true/false in GET /doctypes/types/{id}'),
    doctypes_first_level_id: z.number().int(),
    doctypes_second_level_id: z.number().int(),
    retention_final_disposition: z.string().nullable(),
    retention_rule: z.string().nullable(),
    action_current_use: z.string().nullable(),
    duration_current_use: z.number().int().nullable(),
    process_delay: z.number().int().describe('Processing delay in days: the capture client computes the limit date'),
    delay1: z.number().int(),
    delay2: z.number().int(),
    process_mode: z.string(),
  })
  .meta({ id: 'Doctype' })
/** A document type as 20.10 answers it. */
export type Doctype = z.infer<typeof DoctypeSchema>

/** One node of `GET /rest/doctypes`: a first level, a second level or a document type. */
export const DoctypeTreeNodeSchema = z
  .object({
    id: z.union([z.string(), z.number().int()]).describe('firstlevel_N, secondlevel_N, or the type_id'),
    text: z.string(),
    parent: z.string(),
    state: z.object({ opened: z.boolean() }).optional(),
    icon: z.string().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'DoctypeTreeNode' })

/** Body of `GET /rest/doctypes`. */
export const DoctypeTreeResponseSchema = z
  .object({ structure: z.array(DoctypeTreeNodeSchema) })
  .meta({ id: 'DoctypeTree', description: 'First levels, second levels and document types (enabled only), flat' })
/** Body of `GET /rest/doctypes`. */
export type DoctypeTreeResponse = z.infer<typeof DoctypeTreeResponseSchema>

/** A second level as `GET /rest/doctypes/types/{id}` lists them. */
export const DoctypeSecondLevelItemSchema = z.object({
  doctypes_second_level_id: z.number().int(),
  doctypes_second_level_label: z.string(),
})

/** Body of `GET /rest/doctypes/types/{id}`. */
export const DoctypeResponseSchema = z
  .object({
    doctype: z.union([DoctypeSchema, z.array(z.never()).describe('An unknown id: an empty list, as 20.10 answers')]),
    secondLevel: z.array(DoctypeSecondLevelItemSchema),
    models: z.array(z.unknown()).describe('Document templates: Mailroom has none'),
  })
  .meta({ id: 'DoctypeRead' })
/** Body of `GET /rest/doctypes/types/{id}`. */
export type DoctypeResponse = z.infer<typeof DoctypeResponseSchema>

/** Body of `GET /rest/statuses`. */
export const StatusListResponseSchema = z
  .object({
    statuses: z.array(
      z.object({
        identifier: z.number().int(),
        id: z.string(),
        label_status: z.string(),
        is_system: z.string(),
        img_filename: z.string().nullable(),
        maarch_module: z.string(),
        can_be_searched: z.string(),
        can_be_modified: z.string(),
      }),
    ),
  })
  .meta({ id: 'StatusList' })
/** Body of `GET /rest/statuses`. */
export type StatusListResponse = z.infer<typeof StatusListResponseSchema>

/** Body of `GET /rest/priorities`. */
export const PriorityListResponseSchema = z
  .object({
    priorities: z.array(
      z.object({
        id: z.string(),
        label: z.string(),
        color: z.string(),
        delays: z.number().int().nullable(),
        order: z.number().int().nullable(),
      }),
    ),
  })
  .meta({ id: 'PriorityList' })
/** Body of `GET /rest/priorities`. */
export type PriorityListResponse = z.infer<typeof PriorityListResponseSchema>

const indexingModelBase = {
  id: z.number().int(),
  label: z.string(),
  category: z.string(),
  default: z.boolean(),
  owner: z.number().int().nullable(),
  private: z.boolean(),
  master: z.number().int().nullable(),
  enabled: z.boolean(),
  mandatoryFile: z.boolean(),
}

/** Body of `GET /rest/indexingModels`. */
export const IndexingModelListResponseSchema = z
  .object({ indexingModels: z.array(z.object(indexingModelBase)) })
  .meta({ id: 'IndexingModelList', description: "Enabled models, public or the caller's own" })
/** Body of `GET /rest/indexingModels`. */
export type IndexingModelListResponse = z.infer<typeof IndexingModelListResponseSchema>

/** Body of `GET /rest/indexingModels/{id}`. */
export const IndexingModelResponseSchema = z
  .object({
    indexingModel: z.object({
      ...indexingModelBase,
      fields: z.array(
        z.object({
          identifier: z.string(),
          mandatory: z.boolean(),
          default_value: z.unknown(),
          unit: z.string().nullable(),
          enabled: z.boolean(),
        }),
      ),
    }),
  })
  .meta({ id: 'IndexingModelRead' })
/** Body of `GET /rest/indexingModels/{id}`. */
export type IndexingModelResponse = z.infer<typeof IndexingModelResponseSchema>

/** Body of `GET /rest/customFields`. */
export const CustomFieldListResponseSchema = z
  .object({
    customFields: z.array(
      z.object({
        id: z.number().int(),
        label: z.string(),
        type: z.string(),
        mode: z.string(),
        values: z.array(z.unknown()).describe('Each listed value as {key, label}, both the value'),
        SQLMode: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'CustomFieldList' })
/** Body of `GET /rest/customFields`. */
export type CustomFieldListResponse = z.infer<typeof CustomFieldListResponseSchema>

/** Body of `GET /rest/tags`. */
export const TagListResponseSchema = z
  .object({
    tags: z.array(
      z.object({
        id: z.number().int(),
        label: z.string(),
        description: z.string().nullable(),
        links: z.array(z.unknown()),
        usage: z.string().nullable(),
        parentId: z.number().int().nullable(),
        creationDate: z.string().nullable(),
        countResources: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'TagList' })
/** Body of `GET /rest/tags`. */
export type TagListResponse = z.infer<typeof TagListResponseSchema>

/** A folder as 20.10 lists it (`GET /rest/folders`, `GET /rest/pinnedFolders`). */
export const FolderSummarySchema = z.object({
  name: z.string(),
  id: z.number().int(),
  label: z.string(),
  public: z.boolean(),
  user_id: z.number().int(),
  parent_id: z.number().int().nullable(),
  level: z.number().int(),
  countResources: z.number().int(),
})

/** Body of `GET /rest/folders`. */
export const FolderListResponseSchema = z
  .object({
    folders: z.array(FolderSummarySchema.extend({ pinned: z.boolean(), canEdit: z.boolean() })),
  })
  .meta({ id: 'FolderList', description: 'Folders the caller owns or that are shared with their entities, as a tree' })
/** Body of `GET /rest/folders`. */
export type FolderListResponse = z.infer<typeof FolderListResponseSchema>
