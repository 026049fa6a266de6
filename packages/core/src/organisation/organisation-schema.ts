import { z } from 'zod'
import { AUTHENTICATION_METHODS } from '../auth/ports.js'
import {
  type ActionDefinition,
  ActionDefinitionSchema,
  type BasketDefinition,
  BasketDefinitionSchema,
} from './basket-definitions.js'
import { code, INDEXING_KEYWORDS, optionalText, serial, storable, text } from './document-fields.js'
import { type ListTemplateDefinition, ListTemplateDefinitionSchema } from './list-template-definitions.js'

export { INDEXING_KEYWORDS }

/**
 * The organisation document: every piece of reference data Mailroom stores (entities, groups, users,
 * statuses, document types, indexing models, priorities, custom fields, tags, folders, contacts, parameters,
 * attachment types, diffusion list templates, actions, baskets), as one
 * versioned file. Identifiers are the ones stored (entity codes, group codes, logins, numeric ids), so an
 * installation exported and applied elsewhere keeps them, and an importer can keep a foreign installation's.
 *
 * Every section is optional: a file that leaves a section out says nothing about that kind (apply leaves
 * it as it is, even with prune). Within an item, a field left out takes its documented default, except the
 * ones marked "kept": leaving those out keeps what is stored (serial ids, password hashes).
 */
export const ORGANISATION_VERSION = 1

/** How a user account works: `root_visible`/`root_invisible` see every record; `root` is read as `root_visible`. */
export const USER_MODES = ['standard', 'rest', 'root_visible', 'root_invisible'] as const

/** An entity of the tree (entities table). */
export const EntityDefinitionSchema = z.strictObject({
  /** entity_id: the code records, users and clauses name the entity by. */
  id: code(32),
  /** entities.id, the serial id (`@my_entities_id`, folders); kept when left out. */
  serialId: serial.optional(),
  label: text(255),
  shortLabel: text(50),
  fullName: optionalText(255),
  type: text(64),
  /** Code of the parent entity; null for a top-level entity (which owns a digital safe). */
  parent: code(32).nullable().default(null),
  /** Registration number of a top-level entity: the identifier of its digital safe. */
  businessId: optionalText(32),
  enabled: z.boolean().default(true),
  email: optionalText(255),
  address: z
    .strictObject({
      line1: optionalText(255),
      line2: optionalText(255),
      line3: optionalText(255),
      zipcode: optionalText(32),
      city: optionalText(255),
      country: optionalText(255),
    })
    .default({ line1: null, line2: null, line3: null, zipcode: null, city: null, country: null }),
  ldapId: optionalText(255),
  archivalAgency: optionalText(255),
  archivalAgreement: optionalText(255),
  producerService: optionalText(255),
  externalId: z.record(z.string(), z.unknown()).default({}),
})

/** A group: its perimeter, indexing rights and digital-safe right (usergroups, security). */
export const GroupDefinitionSchema = z.strictObject({
  /** group_id: the group's code. */
  id: code(32),
  /** usergroups.id; kept when left out. */
  serialId: serial.optional(),
  label: text(255),
  /** Security clause over res_view_letterbox (the search language, perimeter macros allowed); null: no perimeter row. */
  perimeter: storable(4000).nullable().default(null),
  /** Comment stored with the perimeter clause. */
  perimeterComment: optionalText(255),
  canIndex: z.boolean().default(false),
  /** Entities the group may index for: entity codes and keywords. */
  indexing: z
    .strictObject({
      entities: z.array(text(32)).default([]),
      keywords: z.array(z.enum(INDEXING_KEYWORDS)).default([]),
    })
    .default({ entities: [], keywords: [] }),
  /** May read the digital-safe journal of the safes its members are positioned under. */
  digitalSafe: z.boolean().default(false),
  /**
   * Maarch service ids the group grants (`create_contacts`, `update_contacts`, `add_links`, `admin_users`,
   * `admin_parameters`, `manage_attachments`, …): the routes around the interface check them. Any service id
   * is kept, so a group imported from Maarch stays whole; docs/organisation.md lists those Mailroom checks.
   */
  privileges: z
    .array(code(64))
    .default([])
    .refine((list) => new Set(list).size === list.length, 'each privilege once'),
})

/** A user's membership of an entity (users_entities). */
export const UserEntityMembershipSchema = z.strictObject({
  id: code(32),
  primary: z.boolean().default(false),
  role: optionalText(255),
})

/** A user account (users, users_entities, usergroup_content). */
export const UserDefinitionSchema = z.strictObject({
  login: storable(128)
    .min(1)
    .regex(/^[^\s]+$/, 'no spaces'),
  /** users.id; kept when left out. */
  id: serial.optional(),
  firstname: optionalText(255),
  lastname: optionalText(255),
  mail: optionalText(255),
  mode: z
    .enum([...USER_MODES, 'root'])
    .default('standard')
    .transform((mode): UserModeName => (mode === 'root' ? 'root_visible' : mode))
    // Documented (JSON Schema, OpenAPI) as what may be written; `root` is read as `root_visible`.
    .meta({ override: { type: 'string', enum: [...USER_MODES, 'root'], default: 'standard' } }),
  enabled: z.boolean().default(true),
  /**
   * How the user signs in: `standard` (a password Mailroom keeps), `ldap` (the organisation's directory
   * checks the password: docs/directory-sign-in.md), `oidc` (an OpenID Connect provider; no password).
   */
  authentication: z.enum(AUTHENTICATION_METHODS).default('standard'),
  groups: z.array(code(32)).default([]),
  entities: z.array(UserEntityMembershipSchema).default([]),
  /** A stored password hash (scrypt as Mailroom writes it); kept when left out. Never a password. */
  passwordHash: storable(255).min(1).optional(),
})

/** A record status (status table). */
export const StatusDefinitionSchema = z.strictObject({
  id: code(10),
  label: text(50),
  /** Records reaching this status are closed (closing date set). */
  closing: z.boolean().default(false),
  system: z.boolean().default(false),
  image: optionalText(255),
  searchable: z.boolean().default(true),
  modifiable: z.boolean().default(true),
})

/** A first level of the document-type tree (doctypes_first_level). */
export const DoctypeFirstLevelSchema = z.strictObject({
  id: serial,
  label: text(255),
  color: optionalText(255),
  enabled: z.boolean().default(true),
})

/** A second level of the document-type tree, inside a first level (doctypes_second_level). */
export const DoctypeSecondLevelSchema = z.strictObject({
  id: serial,
  label: text(255),
  firstLevel: serial,
  color: optionalText(255),
  enabled: z.boolean().default(true),
})

/** A document type, inside a second level (doctypes). */
export const DoctypeDefinitionSchema = z.strictObject({
  /** type_id, as records and the create body name it. */
  id: serial,
  label: text(255),
  secondLevel: serial,
  /** Processing delay in days. */
  processDelay: z.number().int().min(0).default(21),
  processMode: text(8).default('NORMAL'),
  enabled: z.boolean().default(true),
})

/** Categories of indexing models (reference categories). */
export const INDEXING_CATEGORIES = ['incoming', 'outgoing', 'internal', 'ged_doc', 'registeredMail'] as const

/** A field of an indexing model (indexing_models_fields). */
export const IndexingFieldSchema = z.strictObject({
  /** What the field fills: a record column (`doctype`, `priority`…) or `indexingCustomField_<id>`. */
  identifier: text(255),
  mandatory: z.boolean().default(false),
  enabled: z.boolean().default(true),
  /** Value used when a create leaves the field out (any JSON). */
  defaultValue: z.unknown().optional(),
  unit: optionalText(32),
})

/** An indexing model with its fields (indexing_models). */
export const IndexingModelDefinitionSchema = z.strictObject({
  id: serial,
  label: text(255),
  category: z.enum(INDEXING_CATEGORIES),
  default: z.boolean().default(false),
  /** Login of the user who owns the model; null: nobody. */
  owner: storable(128).min(1).nullable().default(null),
  private: z.boolean().default(false),
  /** Id of the model this one derives from. */
  master: serial.nullable().default(null),
  enabled: z.boolean().default(true),
  mandatoryFile: z.boolean().default(false),
  fields: z.array(IndexingFieldSchema).default([]),
})

/** A priority (priorities table). */
export const PriorityDefinitionSchema = z.strictObject({
  id: text(16),
  label: text(128),
  color: text(128).default('#009dc5'),
  /** Delays count working days only. */
  workingDays: z.boolean().default(false),
  /** Processing delay in days; null: none. */
  delays: z.number().int().min(0).nullable().default(null),
  order: z.number().int().nullable().default(null),
})

/** Types of custom fields (reference custom_fields.type). */
export const CUSTOM_FIELD_TYPES = [
  'string',
  'integer',
  'select',
  'date',
  'radio',
  'checkbox',
  'banAutocomplete',
  'contact',
] as const

/** A custom field records may fill (custom_fields). */
export const CustomFieldDefinitionSchema = z.strictObject({
  id: serial,
  label: text(256),
  type: z.enum(CUSTOM_FIELD_TYPES),
  mode: z.enum(['form', 'technical']).default('form'),
  values: z.array(z.unknown()).default([]),
})

/** A tag records may carry (tags). */
export const TagDefinitionSchema = z.strictObject({
  id: serial,
  label: text(128),
})

/** An entity (or keyword) a folder is shared with (entities_folders). */
export const FolderSharingSchema = z.strictObject({
  /** An entity code, or a keyword (`ALL_ENTITIES`) sharing with entities relative to the reader. */
  entity: text(32),
  edition: z.boolean().default(false),
})

/** A folder records may be filed in (folders). */
export const FolderDefinitionSchema = z.strictObject({
  id: serial,
  label: text(255),
  public: z.boolean().default(false),
  /** Login of the owner. */
  owner: storable(128).min(1),
  parent: serial.nullable().default(null),
  sharing: z.array(FolderSharingSchema).default([]),
})

/** A JSON object stored as is (a contact's communication means, custom fields, external ids). */
const jsonObject = z.record(z.string(), z.unknown())
/** A moment, as an ISO 8601 date and time with its offset (what an export writes: UTC, `Z`). */
const moment = z.iso.datetime({ offset: true })

/**
 * A contact records may name as sender or recipient (contacts): every field of Maarch 20.10's contact.
 * Text fields hold at most 256 characters (varchar(256) in 20.10), `notes` at most 65,536.
 */
export const ContactDefinitionSchema = z.strictObject({
  id: serial,
  /** A civility id of the installation (`title1`); Maarch 20.10 keeps unknown ids as they are. */
  civility: optionalText(256),
  firstname: optionalText(256),
  lastname: optionalText(256),
  company: optionalText(256),
  department: optionalText(256),
  function: optionalText(256),
  addressNumber: optionalText(256),
  addressStreet: optionalText(256),
  addressAdditional1: optionalText(256),
  addressAdditional2: optionalText(256),
  addressPostcode: optionalText(256),
  addressTown: optionalText(256),
  addressCountry: optionalText(256),
  email: optionalText(256),
  phone: optionalText(256),
  /** `{url}` or `{email}` (and a password for Maarch2Maarch exchanges) through which the contact's system is reached. */
  communicationMeans: jsonObject.nullable().default(null),
  notes: optionalText(65536),
  /** Login of the user who created the contact; null when unknown. */
  creator: storable(128).min(1).nullable().default(null),
  /** When the contact was created; kept when left out (a new contact: the moment it is applied). */
  creationDate: moment.optional(),
  /** When the contact was last changed (null: never); kept when left out. */
  modificationDate: moment.nullable().optional(),
  enabled: z.boolean().default(true),
  /** Values of the contact custom fields, by custom field id. */
  customFields: jsonObject.nullable().default(null),
  /** Identifiers of the contact in other systems (`m2m`: `SIRET/entityId` for Maarch2Maarch). */
  externalId: jsonObject.default({}),
})

/** A timestamp as Maarch prints one (`2024-03-04 10:02:00`), in the installation's time. */
const timestampText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'YYYY-MM-DD HH:MM:SS')
  .refine((value) => !Number.isNaN(Date.parse(`${value.replace(' ', 'T')}Z`)), 'a real date and time')

/**
 * A parameter of the installation (Maarch's `parameters` table: `workingDays`, `user_quota`, …): a string, an
 * integer or a date, read by clients through GET /rest/parameters/{id}.
 */
export const ParameterDefinitionSchema = z.strictObject({
  id: storable(255)
    .min(1)
    .regex(/^[\w-]+$/, 'letters, digits, "_" and "-" only'),
  description: storable(100000).nullable().default(null),
  /** param_value_string. */
  stringValue: storable(100000).nullable().default(null),
  /** param_value_int. */
  integerValue: z.number().int().min(-2147483648).max(2147483647).nullable().default(null),
  /** param_value_date. */
  dateValue: timestampText.nullable().default(null),
})

/** A type of attachment records may get (Maarch 20.10's attachment types; `GET /rest/attachmentsTypes`). */
export const AttachmentTypeDefinitionSchema = z.strictObject({
  /** The type's code, as attachments name it (`response_project`). */
  id: code(255),
  label: text(255),
  /** Short text the console shows beside attachments of this type (`PJ`); may be empty. */
  icon: storable(10).default(''),
  /** Attachments of this type go to the signature book. */
  sign: z.boolean().default(false),
  /** Attachments of this type get an outgoing chrono number when created without one. */
  chrono: z.boolean().default(false),
  /** Sent with the record's e-mails. */
  attachInMail: z.boolean().default(false),
  /** Offered when adding an attachment by hand. */
  show: z.boolean().default(true),
})

/** The organisation document, version 1. */
export const OrganisationDocumentSchema = z.strictObject({
  version: z.literal(ORGANISATION_VERSION),
  entities: z.array(EntityDefinitionSchema).optional(),
  groups: z.array(GroupDefinitionSchema).optional(),
  users: z.array(UserDefinitionSchema).optional(),
  statuses: z.array(StatusDefinitionSchema).optional(),
  doctypeFirstLevels: z.array(DoctypeFirstLevelSchema).optional(),
  doctypeSecondLevels: z.array(DoctypeSecondLevelSchema).optional(),
  doctypes: z.array(DoctypeDefinitionSchema).optional(),
  indexingModels: z.array(IndexingModelDefinitionSchema).optional(),
  priorities: z.array(PriorityDefinitionSchema).optional(),
  customFields: z.array(CustomFieldDefinitionSchema).optional(),
  tags: z.array(TagDefinitionSchema).optional(),
  folders: z.array(FolderDefinitionSchema).optional(),
  contacts: z.array(ContactDefinitionSchema).optional(),
  parameters: z.array(ParameterDefinitionSchema).optional(),
  attachmentTypes: z.array(AttachmentTypeDefinitionSchema).optional(),
  listTemplates: z.array(ListTemplateDefinitionSchema).optional(),
  actions: z.array(ActionDefinitionSchema).optional(),
  baskets: z.array(BasketDefinitionSchema).optional(),
})

/** An organisation document as read (defaults applied). */
export type OrganisationDocument = z.output<typeof OrganisationDocumentSchema>
/** An organisation document as written by a person or a program (defaults may be left out). */
export type OrganisationDocumentInput = z.input<typeof OrganisationDocumentSchema>
/** An entity as read (defaults applied). */
export type EntityDefinition = z.output<typeof EntityDefinitionSchema>
/** A group as read. */
export type GroupDefinition = z.output<typeof GroupDefinitionSchema>
/** A user as read. */
export type UserDefinition = z.output<typeof UserDefinitionSchema>
/** A user as written in a document or passed to `addUser` (defaults may be left out). */
export type UserDefinitionInput = z.input<typeof UserDefinitionSchema>
/** A user's entity membership as read. */
export type UserEntityMembership = z.output<typeof UserEntityMembershipSchema>
/** A status as read. */
export type StatusDefinition = z.output<typeof StatusDefinitionSchema>
/** A first doctype level as read. */
export type DoctypeFirstLevelDefinition = z.output<typeof DoctypeFirstLevelSchema>
/** A second doctype level as read. */
export type DoctypeSecondLevelDefinition = z.output<typeof DoctypeSecondLevelSchema>
/** A document type as read. */
export type DoctypeDefinition = z.output<typeof DoctypeDefinitionSchema>
/** An indexing model as read. */
export type IndexingModelDefinition = z.output<typeof IndexingModelDefinitionSchema>
/** An indexing model field as read. */
export type IndexingFieldDefinition = z.output<typeof IndexingFieldSchema>
/** A priority as read. */
export type PriorityDefinition = z.output<typeof PriorityDefinitionSchema>
/** A custom field as read. */
export type CustomFieldDefinition = z.output<typeof CustomFieldDefinitionSchema>
/** A tag as read. */
export type TagDefinition = z.output<typeof TagDefinitionSchema>
/** A folder as read. */
export type FolderDefinition = z.output<typeof FolderDefinitionSchema>
/** A contact as read. */
export type ContactDefinition = z.output<typeof ContactDefinitionSchema>
/** A parameter as read. */
export type ParameterDefinition = z.output<typeof ParameterDefinitionSchema>
/** An attachment type as read. */
export type AttachmentTypeDefinition = z.output<typeof AttachmentTypeDefinitionSchema>
/** A user mode as stored. */
export type UserModeName = (typeof USER_MODES)[number]
/** An indexing keyword. */
export type IndexingKeyword = (typeof INDEXING_KEYWORDS)[number]

/** The sections of the document, in the order they are applied (what is named before what names it). */
export const ORGANISATION_SECTIONS = [
  'entities',
  'groups',
  'users',
  'statuses',
  'doctypeFirstLevels',
  'doctypeSecondLevels',
  'doctypes',
  'indexingModels',
  'priorities',
  'customFields',
  'tags',
  'folders',
  'contacts',
  'parameters',
  'attachmentTypes',
  'listTemplates',
  'actions',
  'baskets',
] as const
/** One section (kind of reference data) of the document. */
export type OrganisationSection = (typeof ORGANISATION_SECTIONS)[number]

/** The item type of each section. */
export interface OrganisationItems {
  entities: EntityDefinition
  groups: GroupDefinition
  users: UserDefinition
  statuses: StatusDefinition
  doctypeFirstLevels: DoctypeFirstLevelDefinition
  doctypeSecondLevels: DoctypeSecondLevelDefinition
  doctypes: DoctypeDefinition
  indexingModels: IndexingModelDefinition
  priorities: PriorityDefinition
  customFields: CustomFieldDefinition
  tags: TagDefinition
  folders: FolderDefinition
  contacts: ContactDefinition
  parameters: ParameterDefinition
  attachmentTypes: AttachmentTypeDefinition
  listTemplates: ListTemplateDefinition
  actions: ActionDefinition
  baskets: BasketDefinition
}

/** The key an item of a section is known by (what apply matches stored rows on). */
export function itemKey<S extends OrganisationSection>(section: S, item: OrganisationItems[S]): string {
  if (section === 'users') return (item as UserDefinition).login.toLowerCase()
  return String((item as { id: string | number }).id)
}

/** The JSON Schema of the document (for editors), generated from the zod schema. */
export function organisationJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(OrganisationDocumentSchema, {
    io: 'input',
    unrepresentable: 'any',
    // `override` is metadata for the OpenAPI generator, not a JSON Schema keyword.
    override: (context) => {
      delete (context.jsonSchema as Record<string, unknown>).override
    },
  }) as Record<string, unknown>
  return {
    ...schema,
    title: 'Mailroom organisation document',
    description: 'Reference data and users of a Mailroom installation (docs/organisation.md).',
  }
}

/** Each section's item schema, for tools that walk the document. */
export const SECTION_ITEM_SCHEMAS = {
  entities: EntityDefinitionSchema,
  groups: GroupDefinitionSchema,
  users: UserDefinitionSchema,
  statuses: StatusDefinitionSchema,
  doctypeFirstLevels: DoctypeFirstLevelSchema,
  doctypeSecondLevels: DoctypeSecondLevelSchema,
  doctypes: DoctypeDefinitionSchema,
  indexingModels: IndexingModelDefinitionSchema,
  priorities: PriorityDefinitionSchema,
  customFields: CustomFieldDefinitionSchema,
  tags: TagDefinitionSchema,
  folders: FolderDefinitionSchema,
  contacts: ContactDefinitionSchema,
  parameters: ParameterDefinitionSchema,
  attachmentTypes: AttachmentTypeDefinitionSchema,
  listTemplates: ListTemplateDefinitionSchema,
  actions: ActionDefinitionSchema,
  baskets: BasketDefinitionSchema,
} as const satisfies { [S in OrganisationSection]: z.ZodType }
