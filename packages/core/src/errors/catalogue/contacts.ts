import { defineErrors } from '../error-definition.js'

/** Errors of the contacts routes, with Maarch Courrier 20.10's messages (ContactController). */
export const CONTACTS_ERRORS = defineErrors({
  CONTACT_NOT_FOUND: { kind: 'bad-request', message: 'Contact does not exist' },
  CONTACT_NAME_MANDATORY: { kind: 'bad-request', message: 'Body lastname or company is mandatory' },
  CONTACT_EMAIL_INVALID: { kind: 'bad-request', message: 'Body email is not valid' },
  CONTACT_PHONE_INVALID: { kind: 'bad-request', message: 'Body phone is not valid' },
  CONTACT_FIELD_LENGTH: {
    kind: 'bad-request',
    message: ({ field }: { field: string }) => `Body ${field} length is not valid (1..256)`,
  },
  CONTACT_NOTES_LENGTH: { kind: 'bad-request', message: 'Body notes length is not valid (0..65536)' },
  CONTACT_CUSTOM_FIELDS_NOT_ARRAY: { kind: 'bad-request', message: 'Body customFields is not an array' },
  CONTACT_COMMUNICATION_MEANS_INVALID: {
    kind: 'bad-request',
    message: 'Le moyen de communication doit être une uri ou un courriel',
  },
  CONTACT_M2M_INVALID: {
    kind: 'bad-request',
    message: "L'identifiant Maarch2Maarch doit être au format SIRET/entityId",
  },
  CONTACT_DUPLICATE_MAIL: {
    kind: 'conflict',
    message: ({ id }: { id: number }) =>
      `A contact with this email already exists (id ${id}); send allowDuplicateMail=true to create another`,
  },
  CONTACT_QUERY_INVALID: {
    kind: 'bad-request',
    message: ({ name, rule }: { name: string; rule: string }) => `Query ${name} ${rule}`,
  },
})
