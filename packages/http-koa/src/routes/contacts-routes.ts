import {
  type ContactBody,
  ContactBodySchema,
  ContactByMailQuerySchema,
  ContactByPhoneQuerySchema,
  type ContactCreatedResponse,
  ContactCreatedResponseSchema,
  ContactCreateQuerySchema,
  ContactListQuerySchema,
  type ContactListResponse,
  ContactListResponseSchema,
  ContactLookupResponseSchema,
  ContactPathSchema,
  type ContactResponse,
  ContactSchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { json, type RouteDeclaration } from './route-declaration.js'

const contactExample = {
  id: 1,
  civility: { id: 'title1', label: 'Monsieur', abbreviation: 'M.' },
  firstname: 'Jean',
  lastname: 'Dupont',
  company: null,
  department: null,
  function: 'Directeur',
  addressNumber: '12',
  addressStreet: 'rue des Bains',
  addressAdditional1: null,
  addressAdditional2: null,
  addressPostcode: '99000',
  addressTown: 'Maarch-les-Bains',
  addressCountry: 'France',
  email: 'jean.dupont@example.org',
  phone: '01 02 03 04 05',
  communicationMeans: null,
  notes: null,
  creator: 1,
  creatorLabel: 'Super ADMIN',
  enabled: true,
  creationDate: '2026-11-26T17:55:29.757Z',
  modificationDate: null,
  customFields: [],
  externalId: [],
  fillingRate: { rate: 100, thresholdLevel: 'third' },
} satisfies ContactResponse

const bodyExample = {
  civility: 'title2',
  firstname: 'Annie',
  lastname: 'Capture',
  company: 'Piscine municipale',
  function: 'Directrice',
  addressNumber: '12',
  addressStreet: 'rue des Bains',
  addressPostcode: '99000',
  addressTown: 'Maarch-les-Bains',
  addressCountry: 'France',
  email: 'annie.capture@example.org',
  phone: '0102030405',
  notes: 'Saisie par le poste de numérisation',
} satisfies ContactBody

const CONTACT_BODY_ERRORS = [
  'BODY_NOT_SET_OR_EMPTY',
  'CONTACT_NAME_MANDATORY',
  'CONTACT_EMAIL_INVALID',
  'CONTACT_PHONE_INVALID',
  'CONTACT_FIELD_LENGTH',
  'CONTACT_NOTES_LENGTH',
  'CONTACT_CUSTOM_FIELDS_NOT_ARRAY',
  'CUSTOM_FIELDS_NOT_FOUND',
  'CONTACT_M2M_INVALID',
  'EXTERNAL_ID_NOT_FLAT',
] as const

/** The contacts routes of Maarch 20.10, with getContactByMail and getContactByPhone of later releases. */
export const contactsRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/rest/contacts',
    operationId: 'listContacts',
    tag: 'contacts',
    summary: 'List contacts',
    description:
      'A page of contacts (privilege admin_contacts), every search word matching one of its name or address fields, ' +
      'accents and letter case aside; `count` is the number of contacts matching on all pages.',
    security: 'user',
    request: { query: ContactListQuerySchema },
    responses: {
      '200': {
        description: 'A page of contacts',
        content: json(ContactListResponseSchema, {
          contacts: [
            {
              id: 1,
              firstname: 'Jean',
              lastname: 'Dupont',
              company: null,
              addressNumber: '12',
              addressStreet: 'rue des Bains',
              addressAdditional1: null,
              addressAdditional2: null,
              addressPostcode: '99000',
              addressTown: 'Maarch-les-Bains',
              addressCountry: 'France',
              enabled: true,
              isUsed: true,
              filling: { rate: 100, thresholdLevel: 'third' },
            },
          ],
          count: 1,
        } satisfies ContactListResponse),
      },
    },
    errors: ['SERVICE_FORBIDDEN', 'CONTACT_QUERY_INVALID'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.contacts.list(actorOf(ctx), ctx.query)
      },
  },
  {
    method: 'get',
    path: '/rest/contacts/:id',
    operationId: 'getContact',
    tag: 'contacts',
    summary: 'Read a contact',
    description: 'Any authenticated user may read any contact, as in Maarch 20.10 (contacts have no perimeter).',
    security: 'user',
    request: { path: ContactPathSchema },
    responses: { '200': { description: 'The contact', content: json(ContactSchema, contactExample) } },
    errors: ['ROUTE_ID_NOT_INTEGER', 'CONTACT_NOT_FOUND'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.contacts.read(actorOf(ctx), ctx.params.id ?? '')
      },
  },
  {
    method: 'post',
    path: '/rest/contacts',
    operationId: 'createContact',
    tag: 'contacts',
    summary: 'Create a contact',
    description:
      'Privilege create_contacts or admin_contacts. A contact whose e-mail address another contact already has is ' +
      'refused with 409 naming that contact, unless `allowDuplicateMail=true`.',
    security: 'user',
    request: { query: ContactCreateQuerySchema, body: { schema: ContactBodySchema, example: bodyExample } },
    responses: {
      '200': {
        description: 'The contact was created',
        content: json(ContactCreatedResponseSchema, { id: 4, warning: '' } satisfies ContactCreatedResponse),
      },
    },
    errors: [
      'SERVICE_FORBIDDEN',
      ...CONTACT_BODY_ERRORS,
      'CONTACT_COMMUNICATION_MEANS_INVALID',
      'CONTACT_DUPLICATE_MAIL',
    ],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.contacts.create(actorOf(ctx), ctx.state.body ?? null, {
          allowDuplicateMail: ctx.query.allowDuplicateMail === 'true',
        })
      },
  },
  {
    method: 'put',
    path: '/rest/contacts/:id',
    operationId: 'updateContact',
    tag: 'contacts',
    summary: 'Replace a contact',
    description:
      'Privilege update_contacts or admin_contacts. Every field is replaced: a field the body leaves out becomes null.',
    security: 'user',
    request: { path: ContactPathSchema, body: { schema: ContactBodySchema, example: bodyExample } },
    responses: { '204': { description: 'The contact was replaced' } },
    errors: ['SERVICE_FORBIDDEN', 'ROUTE_ID_NOT_INTEGER', ...CONTACT_BODY_ERRORS, 'CONTACT_NOT_FOUND'],
    serve:
      ({ services }) =>
      async (ctx) => {
        await services.contacts.update(actorOf(ctx), ctx.params.id ?? '', ctx.state.body ?? null)
        ctx.status = 204
      },
  },
  {
    method: 'get',
    path: '/rest/getContactByMail',
    operationId: 'getContactByMail',
    tag: 'contacts',
    summary: 'Find a contact by e-mail address',
    description:
      'The first contact (lowest id) with this e-mail address, letter case aside, or `{}` when none has it ' +
      '(a route of releases after 20.10, which capture clients call first).',
    security: 'user',
    request: { query: ContactByMailQuerySchema },
    responses: {
      '200': {
        description: 'The contact, or {} when none matches',
        content: json(ContactLookupResponseSchema, contactExample),
      },
    },
    errors: ['CONTACT_QUERY_INVALID'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = (await services.contacts.findByMail(actorOf(ctx), ctx.query.mail)) ?? {}
      },
  },
  {
    method: 'get',
    path: '/rest/getContactByPhone',
    operationId: 'getContactByPhone',
    tag: 'contacts',
    summary: 'Find a contact by phone number',
    description:
      'The first contact (lowest id) whose phone number has the same digits (and leading +), spaces, dots, dashes ' +
      'and brackets aside, or `{}` when none has it (a route of releases after 20.10).',
    security: 'user',
    request: { query: ContactByPhoneQuerySchema },
    responses: {
      '200': {
        description: 'The contact, or {} when none matches',
        content: json(ContactLookupResponseSchema, contactExample),
      },
    },
    errors: ['CONTACT_QUERY_INVALID'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = (await services.contacts.findByPhone(actorOf(ctx), ctx.query.phone)) ?? {}
      },
  },
]
