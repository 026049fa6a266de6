import { ACTION_ERRORS } from './actions.js'
import { ATTACHMENT_ERRORS } from './attachments.js'
import { AUTH_ERRORS } from './auth.js'
import { BASKET_ERRORS } from './baskets.js'
import { COMMON_ERRORS } from './common.js'
import { CONTACTS_ERRORS } from './contacts.js'
import { CONTENT_ERRORS } from './content.js'
import { CRITERIA_SEARCH_ERRORS } from './criteria-search.js'
import { ENTITY_ERRORS } from './entities.js'
import { IMPORT_ERRORS } from './import.js'
import { JOURNAL_ERRORS } from './journal.js'
import { LETTER_PAGE_ERRORS } from './letter-page.js'
import { LINKS_ERRORS } from './links.js'
import { LIST_TEMPLATE_ERRORS } from './list-templates.js'
import { NOTES_ERRORS } from './notes.js'
import { ORGANISATION_ERRORS } from './organisation.js'
import { PROCESSING_PAGE_ERRORS } from './processing-page.js'
import { RECORDS_ERRORS } from './records.js'
import { REFERENCE_ERRORS } from './reference.js'
import { SEARCH_ERRORS } from './search.js'
import { STATUS_ERRORS } from './status.js'
import { WEB_CLIENT_ERRORS } from './web-client.js'

/** The one error catalogue: every code with its kind and exact message. */
export const ERROR_CATALOGUE = {
  ...COMMON_ERRORS,
  ...AUTH_ERRORS,
  ...ENTITY_ERRORS,
  ...CONTACTS_ERRORS,
  ...RECORDS_ERRORS,
  ...SEARCH_ERRORS,
  ...CRITERIA_SEARCH_ERRORS,
  ...CONTENT_ERRORS,
  ...STATUS_ERRORS,
  ...JOURNAL_ERRORS,
  ...ORGANISATION_ERRORS,
  ...IMPORT_ERRORS,
  ...NOTES_ERRORS,
  ...ACTION_ERRORS,
  ...LINKS_ERRORS,
  ...REFERENCE_ERRORS,
  ...ATTACHMENT_ERRORS,
  ...BASKET_ERRORS,
  ...WEB_CLIENT_ERRORS,
  ...LETTER_PAGE_ERRORS,
  ...PROCESSING_PAGE_ERRORS,
  ...LIST_TEMPLATE_ERRORS,
} as const
