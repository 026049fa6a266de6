import type { Actor } from '../actors/actor.js'
import type { AuthService } from '../auth/auth-service.js'
import type { ConsoleSignInService } from '../auth/console-sign-in.js'
import type { ContactsServices } from '../contacts/contacts-services.js'
import type { ContentServices } from '../content/content-services.js'
import type { CriteriaSearchServices } from '../criteria-search/criteria-search-services.js'
import type { Entity } from '../entities/entity.js'
import type { JournalServices } from '../journal/journal-services.js'
import type { OrganisationServices } from '../organisation/organisation-services.js'
import type { RecordsServices } from '../records/records-services.js'
import type { SearchServices } from '../search/search-services.js'
import type { StatusServices } from '../status/status-services.js'

/** What the readiness probe found: the database answers, its schema is current, the storage takes writes. */
export interface MailroomHealth {
  readonly database: boolean
  readonly migrations: boolean
  readonly storage: boolean
}

/**
 * Every use case of Mailroom, acting on behalf of an explicit actor. Storage wires them (createMailroom);
 * adapters such as the Koa server only translate requests into these calls.
 */
export interface MailroomServices {
  readonly auth: AuthService
  readonly entities: {
    /** GET /rest/entities/{id}. */
    read(actor: Actor, id: string): Promise<Entity>
  }
  /** GET/POST/PUT /rest/contacts, getContactByMail and getContactByPhone. */
  readonly contacts: ContactsServices
  readonly records: RecordsServices
  readonly search: SearchServices
  /** POST /rest/search and GET /rest/search/configuration: Maarch 20.10's structured search. */
  readonly criteriaSearch: CriteriaSearchServices
  readonly content: ContentServices
  readonly status: StatusServices
  readonly journal: JournalServices
  /** Organisation and user administration (root users only over HTTP); absent in adapters that offer none. */
  readonly organisation?: OrganisationServices
  /** The console's sign-in through the OpenID Connect provider; absent when none is configured for it. */
  readonly consoleSignIn?: ConsoleSignInService
  /** Readiness checks (GET /readyz): each a query or a probe file, so not for a liveness probe. */
  health(): Promise<MailroomHealth>
}
