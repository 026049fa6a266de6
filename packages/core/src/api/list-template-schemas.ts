import { z } from 'zod'
import { ChoosableUserSchema } from './action-schemas.js'

/** The path of `GET /rest/listTemplates/entities/{entityId}`. */
export const EntityListTemplatesPathSchema = z
  .object({ entityId: z.string().describe("The department's serial id (entities.id), as 20.10 addresses it") })
  .meta({ description: 'The department whose templates are read' })

/** The query of `GET /rest/listTemplates/entities/{entityId}`. */
export const EntityListTemplatesQuerySchema = z.object({
  type: z
    .string()
    .optional()
    .describe(
      'visaCircuit or opinionCircuit for those circuits; any other value the diffusion lists (diffusionList); absent: every template',
    ),
})

/** One member of a template: a user, or an entity (20.10's `list_templates_items` row and what the client shows). */
const ListTemplateItemSchema = z.object({
  id: z.number().int(),
  list_template_id: z.number().int(),
  item_id: z.number().int().describe("The user's or the entity's serial id"),
  item_type: z.enum(['user', 'entity']),
  item_mode: z.string().describe('dest (the assignee), cc, avis, visa, sign, …'),
  sequence: z.number().int(),
  isValid: z
    .boolean()
    .optional()
    .describe('Users only: false for a user who is suspended or gone (listed in circuits only)'),
  labelToDisplay: z.string().nullable().describe("A user's first and last name, an entity's label"),
  descriptionToDisplay: z.string().nullable().describe("A user's primary entity label; empty for an entity"),
  hasPrivilege: z
    .boolean()
    .optional()
    .describe(
      'Users only: false when a visa circuit names a user who may neither visa nor sign, or an opinion circuit one who may not give opinions',
    ),
})

/** One template with its members. */
const ListTemplateSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  type: z.string().describe('diffusionList, visaCircuit or opinionCircuit'),
  entity_id: z.number().int().nullable().describe("The department's serial id"),
  owner: z
    .number()
    .int()
    .nullable()
    .describe("The serial id of the user whose own template it is; null: the department's"),
  items: z.array(ListTemplateItemSchema).describe('In their sequence'),
})

/** Body of `GET /rest/listTemplates/entities/{entityId}`. */
export const EntityListTemplatesSchema = z
  .object({ listTemplates: z.array(ListTemplateSchema) })
  .meta({ id: 'EntityListTemplates', description: "A department's diffusion list templates and circuits" })
/** A department's templates, as 20.10's `GET /rest/listTemplates/entities/{entityId}` answers them. */
export type EntityListTemplates = z.infer<typeof EntityListTemplatesSchema>
/** One template of {@link EntityListTemplates}. */
export type ListTemplate = EntityListTemplates['listTemplates'][number]
/** One member of a template. */
export type ListTemplateItem = ListTemplate['items'][number]

/** The query of `GET /rest/roles`. */
export const DiffusionRolesQuerySchema = z.object({
  context: z
    .string()
    .optional()
    .describe(
      'Where the list is edited: redirect (every role may change), indexation, process or details (as the privileges update_diffusion_<context> and update_diffusion_except_recipient_<context> allow); otherwise canUpdate is left out',
    ),
})

/** Body of `GET /rest/roles`. */
export const DiffusionRolesSchema = z
  .object({
    roles: z.array(
      z.object({
        id: z.string().describe('dest, cc, avis'),
        label: z.string(),
        keepInListInstance: z.boolean().describe('Kept on the list when the letter is redirected'),
        canUpdate: z.boolean().optional().describe('Whether the caller may change who holds the role, in the context'),
      }),
    ),
    parameters: z.object({
      keepDiffusionRoleInOutgoingIndexation: z
        .boolean()
        .describe(
          'The parameter of that name is set (not 0): the template’s roles are kept when an outgoing letter is indexed',
        ),
    }),
  })
  .meta({ id: 'DiffusionRoles', description: 'The roles of a diffusion list and whether the caller may change them' })
/** The roles of a diffusion list, as 20.10's `GET /rest/roles` answers them. */
export type DiffusionRoles = z.infer<typeof DiffusionRolesSchema>

/** Path of `GET /rest/entities/{id}/users`. */
export const EntityUsersPathSchema = z
  .object({ id: z.string().describe("The department's serial id (entities.id), as 20.10 addresses it") })
  .meta({ description: 'The department whose users are read' })

/** Body of `GET /rest/entities/{id}/users`: whom the diffusion list offers as the department's assignee. */
export const EntityUsersSchema = z
  .object({
    users: z
      .array(ChoosableUserSchema)
      .describe('The members of the department, neither deleted, absent nor suspended, by last then first name'),
  })
  .meta({ id: 'EntityUsers', description: "A department's users, as the diffusion list's assignee menu offers them" })
/** A department's users, as the diffusion list offers them for its assignee. */
export type EntityUsers = z.infer<typeof EntityUsersSchema>
