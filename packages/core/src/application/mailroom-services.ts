import type { ActionsServices } from '../actions/actions-services.js'
import type { Actor } from '../actors/actor.js'
import type { FullTextBacklog } from '../api/health-schemas.js'
import type { AttachmentServices } from '../attachments/attachment-services.js'
import type { AuthService } from '../auth/auth-service.js'
import type { ConsoleSignInService } from '../auth/console-sign-in.js'
import type { BasketsServices } from '../baskets/ports.js'
import type { ContactsServices } from '../contacts/contacts-services.js'
import type { ContentServices } from '../content/content-services.js'
import type { CriteriaSearchServices } from '../criteria-search/criteria-search-services.js'
import type { DiffusionListServices } from '../diffusion-list/list-instance.js'
import type { Entity } from '../entities/entity.js'
import type { JournalServices } from '../journal/journal-services.js'
import type { LetterPageServices } from '../letter-page/letter-page.js'
import type { LinksServices } from '../links/linked-resource.js'
import type { ListTemplateServices } from '../list-templates/ports.js'
import type { NotesServices } from '../notes/notes-services.js'
import type { OrganisationServices } from '../organisation/organisation-services.js'
import type { ProcessingPageServices } from '../processing-page/ports.js'
import type { RecordsServices } from '../records/records-services.js'
import type { SearchServices } from '../search/search-services.js'
import type { SessionShellServices } from '../session-shell/session-shell.js'
import type { StatusServices } from '../status/status-services.js'
import type { ReferenceServices } from './reference-services.js'

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
  /** Attachments of records: types, create, list, read, content (issue 32). */
  readonly attachments: AttachmentServices
  readonly search: SearchServices
  /** POST /rest/search and GET /rest/search/configuration: Maarch 20.10's structured search. */
  readonly criteriaSearch: CriteriaSearchServices
  readonly content: ContentServices
  readonly status: StatusServices
  readonly journal: JournalServices
  /** Reference data around the interface (issue 32): lists, parameters, the caller's profile. */
  readonly reference: ReferenceServices
  /** Notes of records (POST /rest/notes, GET /rest/resources/{resId}/notes, GET /rest/notes/{id}). */
  readonly notes: NotesServices
  /** Links between records (/rest/resources/{resId}/linkedResources). */
  readonly links: LinksServices
  /** A letter's page in 20.10's web client (GET /rest/resources/{resId}, its items, fields, file and versions). */
  readonly letterPage: LetterPageServices
  /** The clerks' baskets: the home page, each basket's list and filters, `isAllowed`. */
  readonly baskets: BasketsServices
  /** Diffusion lists of records (GET /rest/resources/{resId}/listInstance). */
  readonly diffusionList: DiffusionListServices
  /** The departments' diffusion list templates and the lists' roles (GET /rest/listTemplates/entities/{id}, /rest/roles). */
  readonly listTemplates: ListTemplateServices
  /** Actions on a basket's letters and their locks (`/rest/resourcesList/users/.../baskets/...`). */
  readonly actions: ActionsServices
  /** What 20.10's processing page reads beside the letter: processingData, the history, the external summary, … */
  readonly processingPage: ProcessingPageServices
  /** What 20.10's web client asks around a session: the sign-in page's information, password rules, … */
  readonly sessionShell: SessionShellServices
  /** Organisation and user administration (root users only over HTTP); absent in adapters that offer none. */
  readonly organisation?: OrganisationServices
  /** The console's sign-in through the OpenID Connect provider; absent when none is configured for it. */
  readonly consoleSignIn?: ConsoleSignInService
  /** Readiness checks (GET /readyz): each a query or a probe file, so not for a liveness probe. */
  health(): Promise<MailroomHealth>
  /** The full-text queue's counts (GET /readyz?detail=true); absent in adapters without full-text search. */
  fullTextBacklog?(): Promise<FullTextBacklog>
}
