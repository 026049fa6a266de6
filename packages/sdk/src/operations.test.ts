import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createClient, type MailroomClient } from './client.js'

/**
 * The SDK beside the server's routes: every operation of the OpenAPI document (the committed openapi.json,
 * which http-koa's tests keep equal to what the route declarations produce) has a client method, or is in
 * {@link ABSENT} with the reason. A route added without its method fails here.
 */
interface Operation {
  readonly operationId: string
  readonly method: string
  readonly path: string
}

const DOCUMENT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'openapi.json')

function documentedOperations(): Operation[] {
  const document = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as {
    paths: Record<string, Record<string, { operationId: string }>>
  }
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ operationId: operation.operationId, method, path })),
  )
}

/** Operations the SDK leaves out on purpose, and why. */
const ABSENT: Readonly<Record<string, string>> = {
  beginIdentityProviderSignIn:
    "a browser's page navigation to the identity provider (a redirect setting a cookie), not an API call",
  completeIdentityProviderSignIn:
    "where the identity provider sends the browser back (a redirect to the console's page), not an API call",
  getLanguage: "the labels of Maarch 20.10's web client, an operator's file served for that client's pages",
  getImage: "an image of Maarch 20.10's web client's sign-in page, for that client's pages",
  updateSqlVersion: "a call Maarch 20.10's web client makes on load; Mailroom has nothing to update (always 204)",
  getExternalConnections: 'always empty: Mailroom connects to no signatory book nor Maileva',
  getPinnedFolders: 'always empty: Mailroom has no pinned folders yet',
}

const SAFE = '21750001600019'
const body = {} as never
const BASKET = { userId: 19, groupId: 2, basketId: 4 }

/** How the client calls each operation, with sample arguments. */
const CALLS: Readonly<Record<string, (client: MailroomClient) => Promise<unknown>>> = {
  exportOrganisation: (c) => c.admin.exportOrganisation(),
  applyOrganisation: (c) => c.admin.applyOrganisation(body),
  planOrganisation: (c) => c.admin.planOrganisation(body),
  organisationHistory: (c) => c.admin.organisationHistory(10),
  listUsers: (c) => c.admin.listUsers(),
  addUser: (c) => c.admin.addUser(body),
  setUserPassword: (c) => c.admin.setPassword('jdoe', 'a long enough password'),
  setUserStatus: (c) => c.admin.setEnabled('jdoe', false),
  health: (c) => c.health(),
  ready: (c) => c.ready(),
  openapi: (c) => c.openapi(),
  authenticate: (c) => c.authenticate('bbain', 'maarch'),
  refreshToken: (c) => c.refreshToken('refresh'),
  getIdentityProviderSignIn: (c) => c.getIdentityProviderSignIn(),
  createRecord: (c) => c.createRecord(body),
  newVersion: (c) => c.newVersion(100, body),
  searchRecords: (c) => c.search(body),
  searchByCriteria: (c) => c.searchByCriteria(body),
  getSearchConfiguration: (c) => c.getSearchConfiguration(),
  getContent: (c) => c.getContent(100),
  getOriginalContent: (c) => c.getOriginalContent(100),
  getVersionContent: (c) => c.getVersionContent(100, 2),
  getAttachmentTypes: (c) => c.getAttachmentTypes(),
  createAttachment: (c) => c.createAttachment(body),
  getRecordAttachments: (c) => c.getRecordAttachments(100),
  getAttachment: (c) => c.getAttachment(7),
  deleteAttachment: (c) => c.deleteAttachment(7),
  getAttachmentContent: (c) => c.getAttachmentContent(7),
  getAttachmentOriginalContent: (c) => c.getAttachmentOriginalContent(7),
  updateStatus: (c) => c.updateStatus(body),
  getHistory: (c) => c.getHistory(100),
  getEntities: (c) => c.listEntities(),
  createNote: (c) => c.createNote(body),
  listRecordNotes: (c) => c.listNotes(100),
  getNote: (c) => c.getNote(5),
  listLinkedResources: (c) => c.listLinkedResources(100),
  linkResources: (c) => c.linkResources(100, body),
  listBasketActions: (c) => c.listBasketActions(BASKET, { resId: 24 }),
  runBasketAction: (c) => c.runBasketAction(BASKET, 20, body),
  getRedirectChoices: (c) => c.getRedirectChoices(BASKET, 20),
  checkCloseWithFields: (c) => c.checkCloseWithFields(BASKET, 20, body),
  lockedLetters: (c) => c.lockedLetters(BASKET, body),
  lockLetters: (c) => c.lockLetters(BASKET, body),
  unlockLetters: (c) => c.unlockLetters(BASKET, body),
  unlinkResource: (c) => c.unlinkResource(100, 101),
  getResource: (c) => c.getResource(100, { light: true }),
  getResourceItems: (c) => c.getResourceItems(100),
  getResourceField: (c) => c.getResourceField(100, 'externalId'),
  getResourceFileInformation: (c) => c.getResourceFileInformation(100),
  getResourceVersions: (c) => c.getResourceVersions(100),
  getIndexingFileInformations: (c) => c.getIndexingFileInformations(),
  getListInstance: (c) => c.getListInstance(100),
  getEntityListTemplates: (c) => c.getEntityListTemplates(7, 'diffusionList'),
  getEntityUsers: (c) => c.getEntityUsers(7),
  getDiffusionRoles: (c) => c.getDiffusionRoles('redirect'),
  getHome: (c) => c.getHome(),
  getProcessingData: (c) => c.getProcessingData(24, BASKET),
  getDestinationChanging: (c) => c.getDestinationChanging(24, 3),
  getNotesTemplates: (c) => c.getNotesTemplates(24),
  getExternalSummary: (c) => c.getExternalSummary(24, 3),
  getHistoryPage: (c) => c.getHistoryPage({ resId: 24, limit: 3, onlyActions: true }),
  getIndexingModelEntities: (c) => c.getIndexingModelEntities(),
  getContactsCustomFields: (c) => c.getContactsCustomFields(),
  getLastResources: (c) => c.getLastResources(),
  getBasketList: (c) => c.getBasketList({ userId: 3, groupId: 4, basketId: 1 }, { limit: 10, entities: 'PJS' }),
  getBasketFilters: (c) => c.getBasketFilters({ userId: 3, groupId: 4, basketId: 1 }),
  isResourceAllowed: (c) => c.isResourceAllowed(100),
  getEntity: (c) => c.getEntity('PJS'),
  listContacts: (c) => c.listContacts(),
  createContact: (c) => c.createContact(body),
  getContact: (c) => c.getContact(13),
  updateContact: (c) => c.updateContact(13, body),
  getContactByMail: (c) => c.findContactByMail('a@example.org'),
  getContactByPhone: (c) => c.findContactByPhone('0102030405'),
  getDoctypeTree: (c) => c.getDoctypeTree(),
  getDoctype: (c) => c.getDoctype(101),
  getStatuses: (c) => c.listStatuses(),
  getPriorities: (c) => c.listPriorities(),
  getCustomFields: (c) => c.listCustomFields(),
  getTags: (c) => c.listTags(),
  getIndexingModels: (c) => c.listIndexingModels(),
  getIndexingModel: (c) => c.getIndexingModel(1),
  getFolders: (c) => c.listFolders(),
  getUsers: (c) => c.listUsers(),
  getCurrentUserProfile: (c) => c.getCurrentUserProfile(),
  getAuthenticationInformations: (c) => c.getAuthenticationInformations(),
  getPasswordRules: (c) => c.getPasswordRules(),
  getParameters: (c) => c.listParameters(),
  getParameter: (c) => c.getParameter('workingDays'),
  readJournal: (c) => c.readJournal(SAFE),
  verifyJournalChain: (c) => c.verifyJournalChain(SAFE),
}

/** The method and path one client call sends, through a fetch that answers `{}` to anything. */
async function sent(call: (client: MailroomClient) => Promise<unknown>): Promise<string> {
  const requests: string[] = []
  const client = createClient({
    baseUrl: 'http://mailroom.invalid',
    auth: { login: 'bbain', password: 'maarch' },
    retries: 0,
    fetch: async (input, init) => {
      requests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`)
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } })
    },
  })
  await call(client)
  expect(requests).toHaveLength(1)
  return requests[0] as string
}

/** A documented path as a pattern of the paths a call may send (`{resId}` any one segment). */
function pathPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`)
}

describe('the SDK beside the routes', () => {
  const operations = documentedOperations()

  it('has a method for every operation of the document, or says why it has none', () => {
    const missing = operations
      .map((operation) => operation.operationId)
      .filter((id) => CALLS[id] === undefined && ABSENT[id] === undefined)
    expect(missing, 'operations without an SDK method: add one, or name it in ABSENT with the reason').toEqual([])
    const unknown = [...Object.keys(CALLS), ...Object.keys(ABSENT)].filter(
      (id) => !operations.some((operation) => operation.operationId === id),
    )
    expect(unknown, 'named here but not an operation of the document').toEqual([])
    expect(Object.keys(CALLS).filter((id) => ABSENT[id] !== undefined)).toEqual([])
  })

  it.each(operations.filter((operation) => CALLS[operation.operationId]))(
    '$operationId: the method sends $method $path',
    async (operation) => {
      const request = await sent(CALLS[operation.operationId] as (client: MailroomClient) => Promise<unknown>)
      const [method, path] = request.split(' ') as [string, string]
      expect(method).toBe(operation.method.toUpperCase())
      expect(path).toMatch(pathPattern(operation.path))
    },
  )
})
