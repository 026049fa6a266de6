import { z } from 'zod'
import { CONTACT_ORDER_COLUMNS, CONTACT_PAGE_MAX, CONTACT_SEARCH_MAX_WORDS } from '../contacts/contact-list-query.js'
import { ExternalIdSchema } from '../request-values/flat-values.js'

const text = (description: string) => z.string().max(256).nullable().describe(description)
const filling = z
  .object({
    rate: z.number().describe('Share of the counted fields filled in, in percent (2 decimals)'),
    thresholdLevel: z.enum(['first', 'second', 'third']).describe('first ≤ 33 %, second ≤ 66 %, third above'),
  })
  .meta({ id: 'ContactFilling', description: 'How completely a contact is filled in' })
const jsonObjectOrEmpty = z.union([z.record(z.string(), z.unknown()), z.array(z.never()).max(0)])

/** Path of `/rest/contacts/{id}`. */
export const ContactPathSchema = z
  .object({
    id: z.string().describe('Contact identifier (an integer; anything else answers 400 Route id is not an integer)'),
  })
  .meta({ description: 'The contact addressed' })

/** Query of `GET /rest/contacts`. */
export const ContactListQuerySchema = z
  .object({
    search: z
      .string()
      .max(1000)
      .optional()
      .describe(
        `Words a contact must all match, each in one of its name or address fields (accents and case aside); at most ${CONTACT_SEARCH_MAX_WORDS} words`,
      ),
    offset: z.string().optional().describe('Contacts to skip (an integer ≥ 0; default 0)'),
    limit: z.string().optional().describe(`Contacts per page (an integer from 1 to ${CONTACT_PAGE_MAX}; default 25)`),
    orderBy: z
      .string()
      .optional()
      .describe(`${CONTACT_ORDER_COLUMNS.join(', ')}; anything else orders by id`),
    order: z.enum(['asc', 'desc']).optional().describe('Direction of orderBy (default asc)'),
  })
  .meta({ description: 'Query of GET /rest/contacts' })

/** One contact of `GET /rest/contacts`. */
export const ContactListItemSchema = z
  .object({
    id: z.number().int(),
    firstname: text('First name'),
    lastname: text('Last name'),
    company: text('Company'),
    addressNumber: text('Street number'),
    addressStreet: text('Street'),
    addressAdditional1: text('Address, first additional line'),
    addressAdditional2: text('Address, second additional line'),
    addressPostcode: text('Postcode'),
    addressTown: text('Town'),
    addressCountry: text('Country'),
    enabled: z.boolean(),
    isUsed: z.boolean().describe('Whether a record names the contact as sender or recipient'),
    filling,
  })
  .meta({ id: 'ContactListItem', description: 'A contact in a list' })

/** Body of a successful `GET /rest/contacts`. */
export const ContactListResponseSchema = z
  .object({
    contacts: z.array(ContactListItemSchema),
    count: z.number().int().describe('Contacts matching, all pages'),
  })
  .meta({ id: 'ContactList', description: 'A page of contacts and how many match' })

/** Body of a successful `GET /rest/contacts`. */
export type ContactListResponse = z.infer<typeof ContactListResponseSchema>

/** A contact as `GET /rest/contacts/{id}` answers it. */
export const ContactSchema = z
  .object({
    id: z.number().int(),
    civility: z
      .object({ id: z.string(), label: z.string().nullable(), abbreviation: z.string().nullable() })
      .nullable()
      .describe('The civility id with its label and abbreviation (null label: an id the configuration does not know)'),
    firstname: text('First name'),
    lastname: text('Last name'),
    company: text('Company'),
    department: text('Department'),
    function: text('Function'),
    addressNumber: text('Street number'),
    addressStreet: text('Street'),
    addressAdditional1: text('Address, first additional line'),
    addressAdditional2: text('Address, second additional line'),
    addressPostcode: text('Postcode'),
    addressTown: text('Town'),
    addressCountry: text('Country'),
    email: text('E-mail address'),
    phone: text('Phone number'),
    communicationMeans: z.string().nullable().describe("URL or e-mail address of the contact's system"),
    notes: z.string().nullable(),
    creator: z.number().int().nullable().describe('Identifier of the user who created the contact'),
    creatorLabel: z.string().describe('Name of that user'),
    enabled: z.boolean(),
    creationDate: z.string().describe('ISO 8601'),
    modificationDate: z.string().nullable().describe('ISO 8601; null when never changed'),
    customFields: jsonObjectOrEmpty.nullable().describe('Custom field values by id; [] when none, as 20.10 answers'),
    externalId: jsonObjectOrEmpty.describe('Identifiers in other systems; [] when none, as 20.10 answers'),
    fillingRate: filling,
  })
  .meta({ id: 'Contact', description: 'A contact: a sender or recipient of mail' })

/** A contact as read. */
export type ContactResponse = z.infer<typeof ContactSchema>

/** Body of `POST` and `PUT /rest/contacts`. */
export const ContactBodySchema = z
  .object({
    civility: text('A civility id (title1 Monsieur, title2 Madame, …)').optional(),
    firstname: text('First name').optional(),
    lastname: text('Last name: this or company is required').optional(),
    company: text('Company: this or lastname is required').optional(),
    department: text('Department').optional(),
    function: text('Function').optional(),
    addressNumber: text('Street number').optional(),
    addressStreet: text('Street').optional(),
    addressAdditional1: text('Address, first additional line').optional(),
    addressAdditional2: text('Address, second additional line').optional(),
    addressPostcode: text('Postcode').optional(),
    addressTown: text('Town').optional(),
    addressCountry: text('Country').optional(),
    email: text('E-mail address').optional(),
    phone: text('Phone number (ends with a digit)').optional(),
    communicationMeans: z.string().optional().describe("URL or e-mail address of the contact's system"),
    notes: z.string().max(65536).nullable().optional(),
    externalId: ExternalIdSchema.optional().describe(
      'Identifiers in other systems, each a string, number, boolean or null; m2m must be SIRET/entityId',
    ),
  })
  .meta({
    id: 'ContactBody',
    description: 'A contact to create, or every field of a contact to replace (a field left out becomes null)',
  })

/** Body of `POST` and `PUT /rest/contacts`. */
export type ContactBody = z.input<typeof ContactBodySchema>

/** Query of `POST /rest/contacts`. */
export const ContactCreateQuerySchema = z
  .object({
    allowDuplicateMail: z
      .enum(['true', 'false'])
      .optional()
      .describe('true: create even when a contact already has this e-mail address (else 409)'),
  })
  .meta({ description: 'Query of POST /rest/contacts' })

/** Body of a successful `POST /rest/contacts`. */
export const ContactCreatedResponseSchema = z
  .object({
    id: z.number().int().describe('The new contact'),
    warning: z.string().describe('Always empty (the Maarch2Maarch annuary is not used)'),
  })
  .meta({ id: 'ContactCreated', description: 'The contact was created' })

/** Body of a successful `POST /rest/contacts`. */
export type ContactCreatedResponse = z.infer<typeof ContactCreatedResponseSchema>

/** Body of `GET /rest/getContactByMail` and `getContactByPhone`: the contact, or `{}` when none matches. */
export const ContactLookupResponseSchema = z
  .union([ContactSchema, z.object({}).strict()])
  .meta({ id: 'ContactLookup', description: 'The first matching contact, or {} when none matches' })

/** Query of `GET /rest/getContactByMail`. */
export const ContactByMailQuerySchema = z
  .object({ mail: z.string().max(256).describe('E-mail address (letter case aside)') })
  .meta({ description: 'Query of GET /rest/getContactByMail' })

/** Query of `GET /rest/getContactByPhone`. */
export const ContactByPhoneQuerySchema = z
  .object({ phone: z.string().max(256).describe('Phone number (spaces, dots, dashes and brackets aside)') })
  .meta({ description: 'Query of GET /rest/getContactByPhone' })
