import type {
  ActionRunAnswer,
  ActionRunBody,
  AttachmentBody,
  AttachmentContentBase64Body,
  AttachmentListBody,
  AttachmentOriginalBase64Body,
  AttachmentTypesBody,
  BasketFilters,
  BasketList,
  ChainVerificationResponse,
  CloseWithFieldsCheck,
  ContactBody,
  ContactCreatedResponse,
  ContactListResponse,
  ContactResponse,
  ContactsCustomFields,
  ContentBase64Response,
  ContentParams,
  CreateAttachmentBody,
  CreateRecordBody,
  CreateRecordResponse,
  CriteriaSearchBody,
  CriteriaSearchResponse,
  DestinationChanging,
  DiffusionRoles,
  EarlierCreateRecordBody,
  Entity,
  EntityListTemplates,
  EntityUsers,
  ExternalSummary,
  HistoryPage,
  Home,
  IdentityProviderOffer,
  IndexingFileInformations,
  IndexingModelEntities,
  IsAllowed,
  JournalEventsParams,
  JournalEventsResponse,
  LastResources,
  LetterListBody,
  LinkedResources,
  LinkResourcesBody,
  ListInstance,
  LivenessResponse,
  LockedLetters,
  NewVersionBody,
  NewVersionResponse,
  NoteCreateBody,
  NoteCreated,
  NoteDetail,
  NotesTemplates,
  OfferedActions,
  OriginalContentBase64Response,
  OriginalContentParams,
  ProcessingData,
  ReadinessResponse,
  RecordHistoryResponse,
  RecordNotes,
  RedirectChoices,
  ResourceDetail,
  ResourceField,
  ResourceFileInformation,
  ResourceItems,
  ResourceVersions,
  SearchBody,
  SearchConfigurationResponse,
  SearchOrder,
  SearchResponse,
  StatusUpdateBody,
  StatusUpdateResponse,
  VersionContentParams,
  VersionContentResponse,
} from '@mailroom/core'
import { createAdminClient, type MailroomAdminClient } from './admin-client.js'
import { MailroomApiError } from './errors.js'
import { withWrittenText } from './list-text.js'
import { type ReferenceDataClient, referenceDataMethods } from './reference-client.js'
import { type Bytes, type CallOptions, type ClientOptions, type QueryValues, Transport } from './transport.js'

export type { Bytes, CallOptions, ClientAuth, ClientOptions, QueryValues, TransportRequest } from './transport.js'
export { Transport } from './transport.js'

/** Tokens returned by `authenticate`. */
export interface Tokens {
  /** Bearer token, valid 30 minutes; also what the SERVICE-AUTH cookie of the digital safe carries. */
  readonly token: string
  /** Exchange it for a new bearer token with `refreshToken` (valid 7 days). */
  readonly refreshToken: string
}

/** How `getContent` delivers a raw PDF: `view` (inline) or a download; the bytes are the same. */
export interface RawContentParams {
  readonly mode?: 'view' | ''
  readonly watermark?: boolean
}

/** Raw `getOriginalContent` parameters (the file as stored, or its signed PDF). */
export interface RawOriginalContentParams {
  readonly signedVersion?: boolean
}

/** Ask for the answer as a stream of bytes instead of a Uint8Array. */
export interface StreamOption {
  readonly stream: true
}

/** Paging and order of `searchByCriteria` (query parameters of POST /rest/search). */
export interface CriteriaSearchParams {
  /** Records per page, 1 to 1000 (default 25). */
  readonly limit?: number
  readonly offset?: number
  /** Sort key (default: creation date). */
  readonly order?: SearchOrder
  readonly orderDir?: 'ASC' | 'DESC'
}

/** Options of `readJournal`. */
export interface JournalCallOptions extends CallOptions {
  /**
   * The token the SERVICE-AUTH cookie carries (a Token from `authenticate`, or a service token from
   * `mailroom token <login>`); default: the client's bearer token. Sent as `Cookie: SERVICE-AUTH=<URL-encoded>`:
   * browsers forbid scripts to set Cookie, so there the cookie must be set for the server's origin instead.
   */
  readonly cookieToken?: string
}

/** The basket a list call addresses: its owner (the caller, or the colleague who lent it), the owner's group, the basket (serial ids). */
export interface BasketAddress {
  readonly userId: number
  readonly groupId: number
  readonly basketId: number
}

/**
 * Parameters of `getBasketList` and `getBasketFilters`, as 20.10's client sends them. The filters are
 * comma-separated lists; for `priorities`, `categories` and `entities` an empty text selects the records without
 * a value, a leading or trailing comma adds them.
 */
/** Parameters of `getHistoryPage`, as 20.10's history pages send them. */
export interface HistoryPageParams {
  /** One letter's lines (else the whole history: privilege view_history). */
  readonly resId?: number
  /** Only the actions' lines (enough with view_doc_history). */
  readonly onlyActions?: boolean
  /** 1 to 500 (default 25). */
  readonly limit?: number
  readonly offset?: number
  /** event_date (default, newest first), userLabel, info or remote_ip. */
  readonly orderBy?: string
  readonly order?: 'asc' | 'desc'
  readonly startDate?: string
  readonly endDate?: string
  readonly search?: string
}

const HISTORY_PAGE_PARAMS = [
  'resId',
  'onlyActions',
  'limit',
  'offset',
  'orderBy',
  'order',
  'startDate',
  'endDate',
  'search',
] as const

/** The query of a basket's list and its filters: paging, order, search and 20.10's filters. */
export interface BasketListParams {
  /** 1 to 500 (default 10). */
  readonly limit?: number
  readonly offset?: number
  /** One column and a direction, e.g. `creation_date desc` (default: the basket's order); `alt_identifier` sorts naturally. */
  readonly order?: string
  /** At least 2 characters, in the chrono or the subject. */
  readonly search?: string
  readonly priorities?: string
  readonly categories?: string
  readonly entities?: string
  /** Destination codes, each with every entity below it; empty and commas as `entities`. */
  readonly entitiesChildren?: string
  readonly statuses?: string
  readonly doctypes?: string
  readonly folders?: string
  /** Only records past their process limit date. */
  readonly delayed?: boolean
}

const BASKET_LIST_PARAMS = [
  'limit',
  'offset',
  'order',
  'search',
  'priorities',
  'categories',
  'entities',
  'entitiesChildren',
  'statuses',
  'doctypes',
  'folders',
  'delayed',
] as const

/** Parameters of `listContacts` (GET /rest/contacts). */
export interface ContactListParams {
  /** Words every listed contact matches, each in one of its name or address fields (accents and case aside). */
  readonly search?: string
  readonly offset?: number
  /** 1 to 1000 (default 25). */
  readonly limit?: number
  readonly orderBy?: 'firstname' | 'lastname' | 'company'
  readonly order?: 'asc' | 'desc'
}

/** Options of `createContact`. */
export interface ContactCreateParams {
  /** Create even when a contact already has this e-mail address (else the server answers 409). */
  readonly allowDuplicateMail?: boolean
}

/** The OpenAPI 3.1 document of the server, as plain JSON. */
export type OpenApiJson = Readonly<Record<string, unknown>> & {
  readonly openapi: string
  readonly paths: Readonly<Record<string, unknown>>
}

/** A typed Mailroom client: one method per operation of the interface. */
export interface MailroomClient extends ReferenceDataClient {
  readonly transport: Transport
  /** The /admin operations (organisation document, users), for root users. */
  readonly admin: MailroomAdminClient

  /** POST /rest/authenticate: returns the tokens; the client keeps using its own credentials (see `useToken`). */
  authenticate(login: string, password: string, options?: CallOptions): Promise<Tokens>
  /** GET /rest/authenticate/token: a new bearer token from a refresh token. */
  refreshToken(refreshToken: string, options?: CallOptions): Promise<string>
  /** Makes later calls send `Authorization: Bearer <token>` (e.g. a token from `authenticate`). */
  useToken(token: string): void
  /**
   * GET /rest/authenticate/oidc (Mailroom extension): the OpenID Connect provider the server offers for signing in
   * (its name, and the path a browser opens to sign in there), or null when it offers none.
   */
  getIdentityProviderSignIn(options?: CallOptions): Promise<IdentityProviderOffer | null>

  /** POST /rest/resources: creates a record (current form, or the earlier one with type_id and category_id). */
  createRecord(body: CreateRecordBody | EarlierCreateRecordBody, options?: CallOptions): Promise<CreateRecordResponse>
  /**
   * PUT /rest/resources/{resId}: stores a new version of the record's file (version n+1), or with `type`
   * SIGN / NOTE attaches a signed / annotated PDF to the current version.
   */
  newVersion(resId: number, body: NewVersionBody, options?: CallOptions): Promise<NewVersionResponse>
  /** POST /rest/res/list: records within the caller perimeter (retried like a read). */
  search(body: SearchBody, options?: CallOptions): Promise<SearchResponse>
  /**
   * POST /rest/search: Maarch 20.10's structured search (criteria such as `{ chrono: { values: 'MAARCH/2026A/1' } }`),
   * a page of records with every match's id and the facets (retried like a read). Chronos, subjects and display
   * values come as written (the server sends them made inert for 20.10's web client, which renders them as HTML).
   */
  searchByCriteria(
    body: CriteriaSearchBody,
    params?: CriteriaSearchParams,
    options?: CallOptions,
  ): Promise<CriteriaSearchResponse>
  /** GET /rest/search/configuration: what each line of a criteria search result shows. */
  getSearchConfiguration(options?: CallOptions): Promise<SearchConfigurationResponse>

  /** GET /rest/resources/{resId}/content?mode=base64: the PDF as a base64 object. */
  getContent(
    resId: number,
    params: { readonly mode: 'base64'; readonly watermark?: boolean },
    options?: CallOptions,
  ): Promise<ContentBase64Response>
  /** GET /rest/resources/{resId}/content: the (watermarked) PDF as a stream of bytes. */
  getContent(
    resId: number,
    params: RawContentParams & StreamOption,
    options?: CallOptions,
  ): Promise<ReadableStream<Bytes>>
  /** GET /rest/resources/{resId}/content: the (watermarked) PDF's bytes. */
  getContent(resId: number, params?: RawContentParams, options?: CallOptions): Promise<Bytes>

  /** GET /rest/resources/{resId}/originalContent?mode=base64: the original file as a base64 object. */
  getOriginalContent(
    resId: number,
    params: { readonly mode: 'base64'; readonly signedVersion?: boolean },
    options?: CallOptions,
  ): Promise<OriginalContentBase64Response>
  /** GET /rest/resources/{resId}/originalContent: the original file as a stream of bytes. */
  getOriginalContent(
    resId: number,
    params: RawOriginalContentParams & StreamOption,
    options?: CallOptions,
  ): Promise<ReadableStream<Bytes>>
  /** GET /rest/resources/{resId}/originalContent: the original file's bytes. */
  getOriginalContent(resId: number, params?: RawOriginalContentParams, options?: CallOptions): Promise<Bytes>

  /** GET /rest/resources/{resId}/content/{version}: the PDF (or SIGN / NOTE file) of one version. */
  getVersionContent(
    resId: number,
    version: number,
    params?: VersionContentParams,
    options?: CallOptions,
  ): Promise<VersionContentResponse>

  /** PUT /rest/res/resource/status: sets the status of every record listed by resId or chrono (all or nothing). */
  updateStatus(body: StatusUpdateBody, options?: CallOptions): Promise<StatusUpdateResponse>
  /** GET /rest/resources/{resId}/history: the record's events, newest first. */
  getHistory(resId: number, options?: CallOptions): Promise<RecordHistoryResponse>

  /** POST /rest/notes: writes a note on a record, optionally restricted to entities (`entities`: entity_ids). */
  createNote(body: NoteCreateBody, options?: CallOptions): Promise<NoteCreated>
  /** GET /rest/resources/{resId}/notes: the notes of a record the caller may see, newest first. */
  listNotes(resId: number, params?: { readonly limit?: number }, options?: CallOptions): Promise<RecordNotes>
  /** GET /rest/notes/{id}: one note, with the entity_ids it is restricted to. */
  getNote(id: number, options?: CallOptions): Promise<NoteDetail>

  /** GET /rest/resources/{resId}/linkedResources: the linked records the caller may see. */
  listLinkedResources(resId: number, options?: CallOptions): Promise<LinkedResources>
  /** POST /rest/resources/{resId}/linkedResources: links records to the record, both ways (privilege add_links). */
  linkResources(resId: number, body: LinkResourcesBody, options?: CallOptions): Promise<void>
  /** DELETE /rest/resources/{resId}/linkedResources/{id}: removes the link, both ways (privilege add_links). */
  unlinkResource(resId: number, linkedResId: number, options?: CallOptions): Promise<void>

  /** GET /rest/resources/{resId}: the record in 20.10's shape (`light`: fewer fields, with `followed`). */
  getResource(resId: number, params?: { readonly light?: boolean }, options?: CallOptions): Promise<ResourceDetail>
  /** GET /rest/resources/{resId}/items: the counts of the record's tabs (linked, attachments, lists, notes, receipts). */
  getResourceItems(resId: number, options?: CallOptions): Promise<ResourceItems>
  /** GET /rest/resources/{resId}/fields/{fieldId}: `destination` (`alt`: its serial id), `status` or `externalId`. */
  getResourceField(
    resId: number,
    fieldId: 'destination' | 'status' | 'externalId',
    params?: { readonly alt?: boolean },
    options?: CallOptions,
  ): Promise<ResourceField>
  /** GET /rest/resources/{resId}/fileInformation: the file's format (technical facts with view_technical_infos). */
  getResourceFileInformation(resId: number, options?: CallOptions): Promise<ResourceFileInformation>
  /** GET /rest/resources/{resId}/versionsInformations: the versions of the record's file, by kind. */
  getResourceVersions(resId: number, options?: CallOptions): Promise<ResourceVersions>
  /** GET /rest/indexing/fileInformations: the allowed files and the largest one a request carries. */
  getIndexingFileInformations(options?: CallOptions): Promise<IndexingFileInformations>

  /** GET /rest/home: the caller's baskets, group by group, with their counts, and the baskets lent to the caller. */
  getHome(options?: CallOptions): Promise<Home>
  /** GET /rest/home/lastRessources: the 5 records the caller last acted on. */
  getLastResources(options?: CallOptions): Promise<LastResources>
  /**
   * GET /rest/resourcesList/users/{userId}/groups/{groupId}/baskets/{basketId}: a page of a basket's records. Chronos,
   * subjects and display values come as written (the server sends them made inert for 20.10's web client).
   */
  getBasketList(basket: BasketAddress, params?: BasketListParams, options?: CallOptions): Promise<BasketList>
  /** GET …/baskets/{basketId}/filters: the filter values of a basket's records, with their counts. */
  getBasketFilters(basket: BasketAddress, params?: BasketListParams, options?: CallOptions): Promise<BasketFilters>
  /** GET /rest/resources/{resId}/isAllowed: whether the record is in the caller's perimeter. */
  isResourceAllowed(resId: number, options?: CallOptions): Promise<IsAllowed>

  /** GET /rest/resources/{resId}/listInstance: the diffusion list of a record. */
  getListInstance(resId: number, options?: CallOptions): Promise<ListInstance>
  /** GET /rest/listTemplates/entities/{entityId}: a department's diffusion list templates (one type, or every type). */
  getEntityListTemplates(
    entityId: number,
    type?: 'diffusionList' | 'visaCircuit' | 'opinionCircuit',
    options?: CallOptions,
  ): Promise<EntityListTemplates>
  /** GET /rest/entities/{id}/users: a department's users (serial id), whom its diffusion list may name as assignee. */
  getEntityUsers(entityId: number, options?: CallOptions): Promise<EntityUsers>
  /** GET /rest/roles: the roles of a diffusion list and whether the caller may change them in a context. */
  getDiffusionRoles(
    context?: 'redirect' | 'indexation' | 'process' | 'details',
    options?: CallOptions,
  ): Promise<DiffusionRoles>

  /** GET …/baskets/{basketId}/processingData: what a letter's processing page opened from the basket shows first. */
  getProcessingData(resId: number, basket: BasketAddress, options?: CallOptions): Promise<ProcessingData>
  /** GET …/users/{userId}/isDestinationChanging: whether redirecting the letter to the user changes its department. */
  getDestinationChanging(resId: number, userId: number, options?: CallOptions): Promise<DestinationChanging>
  /** GET /rest/notesTemplates: the note templates of the action dialogs (always empty in Mailroom). */
  getNotesTemplates(resId?: number, options?: CallOptions): Promise<NotesTemplates>
  /** GET /rest/externalSummary/{resId}: what was sent out about the letter (always empty in Mailroom). */
  getExternalSummary(resId: number, limit?: number, options?: CallOptions): Promise<ExternalSummary>
  /** GET /rest/history: a page of a letter's history lines, or of the whole history. */
  getHistoryPage(params?: HistoryPageParams, options?: CallOptions): Promise<HistoryPage>
  /** GET /rest/indexingModels/entities: the enabled entities as a tree. */
  getIndexingModelEntities(options?: CallOptions): Promise<IndexingModelEntities>
  /** GET /rest/contactsCustomFields: the contacts' custom fields (always empty in Mailroom). */
  getContactsCustomFields(options?: CallOptions): Promise<ContactsCustomFields>

  /** GET …/baskets/{basketId}/actions: the actions offered in the basket's list, or on a letter's page (`resId`). */
  listBasketActions(
    basket: BasketAddress,
    params?: { readonly resId?: number },
    options?: CallOptions,
  ): Promise<OfferedActions>
  /**
   * PUT …/baskets/{basketId}/actions/{actionId}: runs the action on letters of the basket; null when every letter
   * changed (204), else why some were left as they were.
   */
  runBasketAction(
    basket: BasketAddress,
    actionId: number,
    body: ActionRunBody,
    options?: CallOptions,
  ): Promise<ActionRunAnswer>
  /** GET …/actions/{actionId}/getRedirect: where a letter of the basket may be redirected. */
  getRedirectChoices(basket: BasketAddress, actionId: number, options?: CallOptions): Promise<RedirectChoices>
  /** POST …/actions/{actionId}/checkCloseWithFieldsAction: which letters may close (their required fields filled). */
  checkCloseWithFields(
    basket: BasketAddress,
    actionId: number,
    body: LetterListBody,
    options?: CallOptions,
  ): Promise<CloseWithFieldsCheck>
  /** PUT …/baskets/{basketId}/locked: who holds which of the letters. */
  lockedLetters(basket: BasketAddress, body: LetterListBody, options?: CallOptions): Promise<LockedLetters>
  /** PUT …/baskets/{basketId}/lock: locks the letters for a minute (call again while the letter stays open). */
  lockLetters(basket: BasketAddress, body: LetterListBody, options?: CallOptions): Promise<void>
  /** PUT …/baskets/{basketId}/unlock: clears the caller's locks on the letters. */
  unlockLetters(basket: BasketAddress, body: LetterListBody, options?: CallOptions): Promise<void>

  /** GET /rest/attachmentsTypes: the attachment types by code. */
  getAttachmentTypes(options?: CallOptions): Promise<AttachmentTypesBody>
  /** POST /rest/attachments: adds an attachment (or, with originId, a new version of one) to a record. */
  createAttachment(body: CreateAttachmentBody, options?: CallOptions): Promise<{ id: number }>
  /** GET /rest/resources/{resId}/attachments: the record's current attachments, latest change first. */
  getRecordAttachments(
    resId: number,
    params?: { readonly limit?: number },
    options?: CallOptions,
  ): Promise<AttachmentListBody>
  /** GET /rest/attachments/{id}: one attachment with its other versions. */
  getAttachment(id: number, options?: CallOptions): Promise<AttachmentBody>
  /** DELETE /rest/attachments/{id}: removes an attachment and its other versions (its typist, or manage_attachments). */
  deleteAttachment(id: number, options?: CallOptions): Promise<void>
  /** GET /rest/attachments/{id}/content?mode=base64: the attachment's PDF (watermarked) as a base64 object. */
  getAttachmentContent(
    id: number,
    params: { readonly mode: 'base64' },
    options?: CallOptions,
  ): Promise<AttachmentContentBase64Body>
  /** GET /rest/attachments/{id}/content: the attachment's PDF (watermarked) bytes. */
  getAttachmentContent(id: number, params?: Record<string, never>, options?: CallOptions): Promise<Bytes>
  /** GET /rest/attachments/{id}/originalContent?mode=base64: the stored file as a base64 object. */
  getAttachmentOriginalContent(
    id: number,
    params: { readonly mode: 'base64' },
    options?: CallOptions,
  ): Promise<AttachmentOriginalBase64Body>
  /** GET /rest/attachments/{id}/originalContent: the stored file's bytes. */
  getAttachmentOriginalContent(id: number, params?: Record<string, never>, options?: CallOptions): Promise<Bytes>

  /** GET /rest/entities/{id}: an entity by entity_id (or integer identifier). */
  getEntity(id: string | number, options?: CallOptions): Promise<Entity>

  /** GET /rest/contacts: a page of contacts and how many match (privilege admin_contacts). */
  listContacts(params?: ContactListParams, options?: CallOptions): Promise<ContactListResponse>
  /** GET /rest/contacts/{id}: a contact, every field. */
  getContact(id: number, options?: CallOptions): Promise<ContactResponse>
  /** POST /rest/contacts: creates a contact (privilege create_contacts or admin_contacts). */
  createContact(body: ContactBody, params?: ContactCreateParams, options?: CallOptions): Promise<ContactCreatedResponse>
  /** PUT /rest/contacts/{id}: replaces every field of a contact (a field left out becomes null). */
  updateContact(id: number, body: ContactBody, options?: CallOptions): Promise<void>
  /** GET /rest/getContactByMail: the first contact with this e-mail address, or null when none has it. */
  findContactByMail(mail: string, options?: CallOptions): Promise<ContactResponse | null>
  /** GET /rest/getContactByPhone: the first contact with this phone number (separators aside), or null. */
  findContactByPhone(phone: string, options?: CallOptions): Promise<ContactResponse | null>

  /** GET /digitalSafe/digitalSafe/{owner}/events: the journal of a digital safe, with the SERVICE-AUTH cookie. */
  readJournal(owner: string, params?: JournalEventsParams, options?: JournalCallOptions): Promise<JournalEventsResponse>
  /**
   * GET /rest/digitalSafe/{owner}/verification (Mailroom extension): whether the safe's hash chain verifies,
   * with the client's own credentials. Resolves for a broken chain too (`verified: false`, `firstBreak`).
   * `{ full: true }` walks the whole chain again instead of resuming from the last verified point (root
   * users only; its cost grows with the chain).
   */
  verifyJournalChain(
    owner: string,
    params?: ChainVerificationParams,
    options?: CallOptions,
  ): Promise<ChainVerificationResponse>

  /** GET /healthz: the liveness probe (the process answers). */
  health(options?: CallOptions): Promise<LivenessResponse>
  /** GET /readyz. Resolves for 200 only: a 503 rejects with a MailroomApiError whose body names the failing checks. */
  ready(options?: CallOptions): Promise<ReadinessResponse>
  /** GET /rest/openapi.json: the server's OpenAPI document. */
  openapi(options?: CallOptions): Promise<OpenApiJson>
}

function resource(resId: number): string {
  return `rest/resources/${encodeURIComponent(String(resId))}`
}

/** Query of {@link MailroomClient.verifyJournalChain}. */
export interface ChainVerificationParams {
  /** Walk the whole chain again instead of resuming from the last verified point (root users only). */
  readonly full?: boolean
}

/** True when a raw download asks for a stream. */
function streamWanted(params: object | undefined): boolean {
  return (params as { stream?: unknown } | undefined)?.stream === true
}

/** A lookup's answer: the contact, or null for the `{}` the server answers when none matches. */
function found(answer: ContactResponse | Record<string, never>): ContactResponse | null {
  return 'id' in answer ? (answer as ContactResponse) : null
}

/** The path of a basket's list. */
function basketPath(basket: BasketAddress): string {
  const id = (n: number) => encodeURIComponent(String(n))
  return `rest/resourcesList/users/${id(basket.userId)}/groups/${id(basket.groupId)}/baskets/${id(basket.basketId)}`
}

function query(params: object | undefined, names: readonly string[]): QueryValues {
  const out: Record<string, string | number | boolean | undefined> = {}
  for (const name of names) {
    const value = (params as Record<string, unknown> | undefined)?.[name]
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[name] = value
  }
  return out
}

/**
 * Creates a client for a Mailroom server. Works wherever `fetch` exists (Node ≥ 22.12, browsers).
 *
 * @example
 * ```ts
 * import { createClient, encodeBase64, MailroomApiError } from '@mailroom/sdk'
 *
 * const mailroom = createClient({ baseUrl: 'http://127.0.0.1:8080', auth: { login: 'bbain', password: 'maarch' } })
 * const encodedFile = encodeBase64(new TextEncoder().encode('Bonjour'))
 * const { resId } = await mailroom.createRecord({ modelId: 1, status: 'NEW', subject: 'Demande', encodedFile, format: 'txt' })
 * const { resources } = await mailroom.search({ select: 'res_id,subject', clause: `res_id = ${resId}` })
 * const pdf = await mailroom.getContent(resId) // the record's file as PDF bytes
 * console.log(resources, pdf.byteLength)
 *
 * try {
 *   await mailroom.getEntity('NOPE')
 * } catch (error) {
 *   if (error instanceof MailroomApiError) console.log(error.status, error.message)
 * }
 * ```
 */
export function createClient(options: ClientOptions): MailroomClient {
  const transport = new Transport(options)

  const download = (path: string, params: object | undefined, names: readonly string[], call: CallOptions) => {
    const init = { ...call, query: query(params, names) }
    return streamWanted(params) ? transport.stream('GET', path, init) : transport.bytes('GET', path, init)
  }

  const getContent = ((resId: number, params?: ContentParams & { stream?: boolean }, call: CallOptions = {}) => {
    const path = `${resource(resId)}/content`
    if (params?.mode === 'base64')
      return transport.json('GET', path, { ...call, query: query(params, ['mode', 'watermark']) })
    return download(path, params, ['mode', 'watermark'], call)
  }) as MailroomClient['getContent']

  const getOriginalContent = ((
    resId: number,
    params?: OriginalContentParams & { stream?: boolean },
    call: CallOptions = {},
  ) => {
    const path = `${resource(resId)}/originalContent`
    if (params?.mode === 'base64')
      return transport.json('GET', path, { ...call, query: query(params, ['mode', 'signedVersion']) })
    return download(path, params, ['signedVersion'], call)
  }) as MailroomClient['getOriginalContent']

  /** An attachment's file: JSON with mode=base64, else its bytes. */
  const attachmentFile =
    (route: 'content' | 'originalContent') =>
    (id: number, params?: { readonly mode?: 'base64' }, call: CallOptions = {}) => {
      const path = `rest/attachments/${encodeURIComponent(String(id))}/${route}`
      if (params?.mode === 'base64') return transport.json('GET', path, { ...call, query: { mode: 'base64' } })
      return transport.bytes('GET', path, call)
    }

  return {
    transport,
    admin: createAdminClient(transport),

    async authenticate(login, password, call = {}) {
      const response = await transport.empty('POST', 'rest/authenticate', {
        body: { login, password },
        auth: false,
        ...call,
      })
      return { token: response.headers.get('token') ?? '', refreshToken: response.headers.get('refresh-token') ?? '' }
    },
    async refreshToken(refreshToken, call = {}) {
      return (
        await transport.json<{ token: string }>('GET', 'rest/authenticate/token', {
          query: { refreshToken },
          auth: false,
          ...call,
        })
      ).token
    },
    useToken(token) {
      transport.setAuth({ token })
    },
    async getIdentityProviderSignIn(call = {}) {
      try {
        return await transport.json<IdentityProviderOffer>('GET', 'rest/authenticate/oidc', { auth: false, ...call })
      } catch (error) {
        // The server answers 404 when it has no provider with a redirect URL.
        if (error instanceof MailroomApiError && error.status === 404) return null
        throw error
      }
    },

    createRecord(body, call = {}) {
      return transport.json('POST', 'rest/resources', { body, ...call })
    },
    newVersion(resId, body, call = {}) {
      return transport.json('PUT', resource(resId), { body, ...call })
    },
    search(body, call = {}) {
      return transport.json('POST', 'rest/res/list', { body, idempotent: true, ...call })
    },
    async searchByCriteria(body, params = {}, call = {}) {
      const found = await transport.json<CriteriaSearchResponse>('POST', 'rest/search', {
        body,
        idempotent: true,
        ...call,
        query: query(params, ['limit', 'offset', 'order', 'orderDir']),
      })
      return withWrittenText(found)
    },
    getSearchConfiguration(call = {}) {
      return transport.json('GET', 'rest/search/configuration', call)
    },

    getContent,
    getOriginalContent,
    getVersionContent(resId, version, params, call = {}) {
      return transport.json('GET', `${resource(resId)}/content/${encodeURIComponent(String(version))}`, {
        ...call,
        query: query(params, ['type']),
      })
    },

    updateStatus(body, call = {}) {
      return transport.json('PUT', 'rest/res/resource/status', { body, ...call })
    },
    getHistory(resId, call = {}) {
      return transport.json('GET', `${resource(resId)}/history`, call)
    },

    createNote(body, call = {}) {
      return transport.json('POST', 'rest/notes', { body, ...call })
    },
    listNotes(resId, params, call = {}) {
      return transport.json('GET', `${resource(resId)}/notes`, { ...call, query: query(params, ['limit']) })
    },
    getNote(id, call = {}) {
      return transport.json('GET', `rest/notes/${encodeURIComponent(String(id))}`, call)
    },

    listLinkedResources(resId, call = {}) {
      return transport.json('GET', `${resource(resId)}/linkedResources`, call)
    },
    async linkResources(resId, body, call = {}) {
      // Linking again changes nothing: safe to retry.
      await transport.empty('POST', `${resource(resId)}/linkedResources`, { body, idempotent: true, ...call })
    },
    async unlinkResource(resId, linkedResId, call = {}) {
      const path = `${resource(resId)}/linkedResources/${encodeURIComponent(String(linkedResId))}`
      await transport.empty('DELETE', path, { idempotent: true, ...call })
    },

    getResource(resId, params, call = {}) {
      // 20.10 reads `light` as set whenever it is not empty: only `true` is sent.
      const light = params?.light ? { light: 'true' } : {}
      return transport.json('GET', resource(resId), { ...call, query: light })
    },
    getResourceItems(resId, call = {}) {
      return transport.json('GET', `${resource(resId)}/items`, call)
    },
    getResourceField(resId, fieldId, params, call = {}) {
      const alt = params?.alt ? { alt: 'true' } : {}
      return transport.json('GET', `${resource(resId)}/fields/${encodeURIComponent(fieldId)}`, { ...call, query: alt })
    },
    getResourceFileInformation(resId, call = {}) {
      return transport.json('GET', `${resource(resId)}/fileInformation`, call)
    },
    getResourceVersions(resId, call = {}) {
      return transport.json('GET', `${resource(resId)}/versionsInformations`, call)
    },
    getIndexingFileInformations(call = {}) {
      return transport.json('GET', 'rest/indexing/fileInformations', call)
    },

    getHome(call = {}) {
      return transport.json('GET', 'rest/home', call)
    },
    getLastResources(call = {}) {
      return transport.json('GET', 'rest/home/lastRessources', call)
    },
    async getBasketList(basket, params, call = {}) {
      const list = await transport.json<BasketList>('GET', basketPath(basket), {
        ...call,
        query: query(params, BASKET_LIST_PARAMS),
      })
      return withWrittenText(list)
    },
    getBasketFilters(basket, params, call = {}) {
      return transport.json('GET', `${basketPath(basket)}/filters`, {
        ...call,
        query: query(params, BASKET_LIST_PARAMS),
      })
    },
    isResourceAllowed(resId, call = {}) {
      return transport.json('GET', `${resource(resId)}/isAllowed`, call)
    },

    getListInstance(resId, call = {}) {
      return transport.json('GET', `${resource(resId)}/listInstance`, call)
    },
    getEntityListTemplates(entityId, type, call = {}) {
      return transport.json('GET', `rest/listTemplates/entities/${encodeURIComponent(String(entityId))}`, {
        ...call,
        query: { type },
      })
    },
    getEntityUsers(entityId, call = {}) {
      return transport.json('GET', `rest/entities/${encodeURIComponent(String(entityId))}/users`, call)
    },
    getDiffusionRoles(context, call = {}) {
      return transport.json('GET', 'rest/roles', { ...call, query: { context } })
    },

    getProcessingData(resId, basket, call = {}) {
      // The basket's address after the letter's: …/resources/{resId}/users/{userId}/groups/…/processingData.
      const address = basketPath(basket).replace(/^rest\/resourcesList\//, '')
      return transport.json('GET', `${resource(resId)}/${address}/processingData`, call)
    },
    getDestinationChanging(resId, userId, call = {}) {
      return transport.json(
        'GET',
        `${resource(resId)}/users/${encodeURIComponent(String(userId))}/isDestinationChanging`,
        call,
      )
    },
    getNotesTemplates(resId, call = {}) {
      return transport.json('GET', 'rest/notesTemplates', { ...call, query: { resId } })
    },
    getExternalSummary(resId, limit, call = {}) {
      return transport.json('GET', `rest/externalSummary/${encodeURIComponent(String(resId))}`, {
        ...call,
        query: { limit },
      })
    },
    getHistoryPage(params, call = {}) {
      return transport.json('GET', 'rest/history', { ...call, query: query(params, HISTORY_PAGE_PARAMS) })
    },
    getIndexingModelEntities(call = {}) {
      return transport.json('GET', 'rest/indexingModels/entities', call)
    },
    getContactsCustomFields(call = {}) {
      return transport.json('GET', 'rest/contactsCustomFields', call)
    },

    listBasketActions(ref, params, call = {}) {
      return transport.json('GET', `${basketPath(ref)}/actions`, { ...call, query: query(params, ['resId']) })
    },
    runBasketAction(ref, actionId, body, call = {}) {
      return transport.jsonOrNull('PUT', `${basketPath(ref)}/actions/${encodeURIComponent(String(actionId))}`, {
        body,
        ...call,
      })
    },
    getRedirectChoices(ref, actionId, call = {}) {
      return transport.json(
        'GET',
        `${basketPath(ref)}/actions/${encodeURIComponent(String(actionId))}/getRedirect`,
        call,
      )
    },
    checkCloseWithFields(ref, actionId, body, call = {}) {
      const path = `${basketPath(ref)}/actions/${encodeURIComponent(String(actionId))}/checkCloseWithFieldsAction`
      return transport.json('POST', path, { body, ...call })
    },
    lockedLetters(ref, body, call = {}) {
      return transport.json('PUT', `${basketPath(ref)}/locked`, { body, ...call })
    },
    async lockLetters(ref, body, call = {}) {
      // Locking again only renews the caller's own lock: safe to retry.
      await transport.empty('PUT', `${basketPath(ref)}/lock`, { body, idempotent: true, ...call })
    },
    async unlockLetters(ref, body, call = {}) {
      await transport.empty('PUT', `${basketPath(ref)}/unlock`, { body, idempotent: true, ...call })
    },

    getAttachmentTypes(call = {}) {
      return transport.json('GET', 'rest/attachmentsTypes', call)
    },
    createAttachment(body, call = {}) {
      return transport.json('POST', 'rest/attachments', { body, ...call })
    },
    getRecordAttachments(resId, params, call = {}) {
      return transport.json('GET', `${resource(resId)}/attachments`, { ...call, query: query(params, ['limit']) })
    },
    getAttachment(id, call = {}) {
      return transport.json('GET', `rest/attachments/${encodeURIComponent(String(id))}`, call)
    },
    async deleteAttachment(id, call = {}) {
      // Not retried: a second removal of a removed attachment answers 400.
      await transport.empty('DELETE', `rest/attachments/${encodeURIComponent(String(id))}`, call)
    },
    getAttachmentContent: attachmentFile('content') as MailroomClient['getAttachmentContent'],
    getAttachmentOriginalContent: attachmentFile('originalContent') as MailroomClient['getAttachmentOriginalContent'],

    async getEntity(id, call = {}) {
      return (await transport.json<{ entity: Entity }>('GET', `rest/entities/${encodeURIComponent(String(id))}`, call))
        .entity
    },

    listContacts(params, call = {}) {
      return transport.json('GET', 'rest/contacts', {
        ...call,
        query: query(params, ['search', 'offset', 'limit', 'orderBy', 'order']),
      })
    },
    getContact(id, call = {}) {
      return transport.json('GET', `rest/contacts/${encodeURIComponent(String(id))}`, call)
    },
    createContact(body, params, call = {}) {
      return transport.json('POST', 'rest/contacts', {
        body,
        ...call,
        query: params?.allowDuplicateMail === true ? { allowDuplicateMail: 'true' } : {},
      })
    },
    async updateContact(id, body, call = {}) {
      await transport.empty('PUT', `rest/contacts/${encodeURIComponent(String(id))}`, { body, ...call })
    },
    async findContactByMail(mail, call = {}) {
      return found(await transport.json('GET', 'rest/getContactByMail', { ...call, query: { mail } }))
    },
    async findContactByPhone(phone, call = {}) {
      return found(await transport.json('GET', 'rest/getContactByPhone', { ...call, query: { phone } }))
    },

    readJournal(owner, params, call = {}) {
      const { cookieToken, ...rest } = call
      const auth = transport.auth
      const token = cookieToken ?? (auth && 'token' in auth ? auth.token : undefined)
      const headers: Record<string, string> = {
        accept: 'application/json',
        'content-type': 'application/json',
        'user-agent': 'service',
      }
      if (token !== undefined) headers.cookie = `SERVICE-AUTH=${encodeURIComponent(token)}`
      const names = [
        'archiveId',
        'originatorOrgRegNumber',
        'fromDate',
        'toDate',
        'fromOriginatorArchiveId',
        'toOriginatorArchiveId',
        'limit',
        'after',
      ]
      return transport.json('GET', `digitalSafe/digitalSafe/${encodeURIComponent(owner)}/events`, {
        ...rest,
        headers,
        auth: false,
        query: query(params, names),
      })
    },

    verifyJournalChain(owner, params, call = {}) {
      return transport.json('GET', `rest/digitalSafe/${encodeURIComponent(owner)}/verification`, {
        ...call,
        query: query(params, ['full']),
      })
    },

    health(call = {}) {
      return transport.json('GET', 'healthz', { auth: false, ...call })
    },
    ready(call = {}) {
      return transport.json('GET', 'readyz', { auth: false, ...call })
    },
    openapi(call = {}) {
      return transport.json('GET', 'rest/openapi.json', { auth: false, ...call })
    },

    ...referenceDataMethods(transport),
  }
}
