import type {
  NewUserBody,
  OrganisationDocument,
  OrganisationDocumentInput,
  OrganisationHistoryResponse,
  OrganisationPlanResponse,
  UserSummaryResponse,
} from '@mailroom/core'
import type { CallOptions, Transport } from './transport.js'

/** Options of the plan and apply calls. */
export interface OrganisationApplyCallOptions extends CallOptions {
  /** Remove, in each section the document has, what it does not list (never what records use). */
  readonly prune?: boolean
}

/** The /admin operations, for root users: the organisation as a document, and users. */
export interface MailroomAdminClient {
  /** GET /admin/organisation: the organisation document (no password hashes). */
  exportOrganisation(options?: CallOptions): Promise<OrganisationDocument>
  /** POST /admin/organisation/plan: what applying a document would change; nothing is changed. */
  planOrganisation(
    document: OrganisationDocumentInput,
    options?: OrganisationApplyCallOptions,
  ): Promise<OrganisationPlanResponse>
  /** PUT /admin/organisation: validates and applies a document in one transaction. */
  applyOrganisation(
    document: OrganisationDocumentInput,
    options?: OrganisationApplyCallOptions,
  ): Promise<OrganisationPlanResponse>
  /** GET /admin/organisation/history: changes, newest first. */
  organisationHistory(limit?: number, options?: CallOptions): Promise<OrganisationHistoryResponse>
  /** GET /admin/users. */
  listUsers(options?: CallOptions): Promise<UserSummaryResponse[]>
  /** POST /admin/users: adds a user (with a password under the policy, or none yet). */
  addUser(user: NewUserBody, options?: CallOptions): Promise<UserSummaryResponse>
  /** PUT /admin/users/{login}/password. */
  setPassword(login: string, password: string, options?: CallOptions): Promise<void>
  /** PUT /admin/users/{login}/status: a disabled user's tokens stop working at once. */
  setEnabled(login: string, enabled: boolean, options?: CallOptions): Promise<UserSummaryResponse>
}

function user(login: string, part: string): string {
  return `admin/users/${encodeURIComponent(login)}/${part}`
}

/** The admin operations over a client's transport. */
export function createAdminClient(transport: Transport): MailroomAdminClient {
  const pruneQuery = (options: OrganisationApplyCallOptions) => (options.prune ? { prune: 'true' } : {})
  return {
    exportOrganisation: (call = {}) => transport.json('GET', 'admin/organisation', call),
    planOrganisation: (document, { prune, ...call } = {}) =>
      transport.json('POST', 'admin/organisation/plan', { body: document, ...call, query: pruneQuery({ prune }) }),
    applyOrganisation: (document, { prune, ...call } = {}) =>
      transport.json('PUT', 'admin/organisation', { body: document, ...call, query: pruneQuery({ prune }) }),
    organisationHistory: (limit, call = {}) =>
      transport.json('GET', 'admin/organisation/history', { ...call, query: limit === undefined ? {} : { limit } }),
    listUsers: (call = {}) => transport.json('GET', 'admin/users', call),
    addUser: (body, call = {}) => transport.json('POST', 'admin/users', { body, ...call }),
    async setPassword(login, password, call = {}) {
      await transport.empty('PUT', user(login, 'password'), { body: { password }, ...call })
    },
    setEnabled: (login, enabled, call = {}) =>
      transport.json('PUT', user(login, 'status'), { body: { enabled }, ...call }),
  }
}
