import type {
  AuthenticationInformations,
  CurrentUserProfile,
  CustomFieldListResponse,
  DoctypeResponse,
  DoctypeTreeResponse,
  EntityTreeNode,
  FolderListResponse,
  IndexingModelListResponse,
  IndexingModelResponse,
  Parameter,
  ParameterListResponse,
  PasswordRulesResponse,
  PriorityListResponse,
  StatusListResponse,
  TagListResponse,
  UsersResponse,
} from '@mailroom/core'
import type { CallOptions, Transport } from './transport.js'

/**
 * The reference-data reads (Maarch 20.10's routes around the interface): what a client offers instead of typed
 * ids, the parameters and the caller's profile. A list answered under one key is returned unwrapped.
 */
export interface ReferenceDataClient {
  /** GET /rest/entities: every enabled entity as a jsTree node; `allowed` marks the caller's and those below. */
  listEntities(options?: CallOptions): Promise<EntityTreeNode[]>
  /** GET /rest/doctypes: first levels, second levels and document types, flat. */
  getDoctypeTree(options?: CallOptions): Promise<DoctypeTreeResponse['structure']>
  /** GET /rest/doctypes/types/{id}: the type (`doctype` is `[]` when unknown), second levels, templates. */
  getDoctype(id: number, options?: CallOptions): Promise<DoctypeResponse>
  /** GET /rest/statuses. */
  listStatuses(options?: CallOptions): Promise<StatusListResponse['statuses']>
  /** GET /rest/priorities, in their order. */
  listPriorities(options?: CallOptions): Promise<PriorityListResponse['priorities']>
  /** GET /rest/indexingModels: enabled models, public or the caller's own. */
  listIndexingModels(options?: CallOptions): Promise<IndexingModelListResponse['indexingModels']>
  /** GET /rest/indexingModels/{id}: a model with its fields. */
  getIndexingModel(id: number, options?: CallOptions): Promise<IndexingModelResponse['indexingModel']>
  /** GET /rest/customFields. */
  listCustomFields(options?: CallOptions): Promise<CustomFieldListResponse['customFields']>
  /** GET /rest/tags, each with the number of records carrying it. */
  listTags(options?: CallOptions): Promise<TagListResponse['tags']>
  /** GET /rest/folders: the folders the caller may see, as a tree. */
  listFolders(options?: CallOptions): Promise<FolderListResponse['folders']>
  /** GET /rest/users (privilege admin_users): the users and 20.10's quota (empty). */
  listUsers(options?: CallOptions): Promise<UsersResponse>
  /** GET /rest/parameters: every parameter with admin_parameters, else the few 20.10 shows anyone. */
  listParameters(options?: CallOptions): Promise<ParameterListResponse['parameters']>
  /** GET /rest/parameters/{id} (admin_parameters, except the visa circuit's three): `workingDays` and the others. */
  getParameter(id: string, options?: CallOptions): Promise<Parameter>
  /** GET /rest/currentUser/profile: the caller, their groups, entities and privileges. */
  getCurrentUserProfile(options?: CallOptions): Promise<CurrentUserProfile>
  /** GET /rest/authenticationInformations (public): the sign-in page's name, message (safe HTML) and mode. */
  getAuthenticationInformations(options?: CallOptions): Promise<AuthenticationInformations>
  /** GET /rest/passwordRules (public): the rules a new password must follow, as 20.10's rows. */
  getPasswordRules(options?: CallOptions): Promise<PasswordRulesResponse['rules']>
}

/** The {@link ReferenceDataClient} methods over a transport. */
export function referenceDataMethods(transport: Transport): ReferenceDataClient {
  const get = <T>(path: string, call: CallOptions) => transport.json<T>('GET', `rest/${path}`, call)
  const id = (value: string | number) => encodeURIComponent(String(value))
  return {
    async listEntities(call = {}) {
      return (await get<{ entities: EntityTreeNode[] }>('entities', call)).entities
    },
    async getDoctypeTree(call = {}) {
      return (await get<DoctypeTreeResponse>('doctypes', call)).structure
    },
    getDoctype(typeId, call = {}) {
      return get<DoctypeResponse>(`doctypes/types/${id(typeId)}`, call)
    },
    async listStatuses(call = {}) {
      return (await get<StatusListResponse>('statuses', call)).statuses
    },
    async listPriorities(call = {}) {
      return (await get<PriorityListResponse>('priorities', call)).priorities
    },
    async listIndexingModels(call = {}) {
      return (await get<IndexingModelListResponse>('indexingModels', call)).indexingModels
    },
    async getIndexingModel(modelId, call = {}) {
      return (await get<IndexingModelResponse>(`indexingModels/${id(modelId)}`, call)).indexingModel
    },
    async listCustomFields(call = {}) {
      return (await get<CustomFieldListResponse>('customFields', call)).customFields
    },
    async listTags(call = {}) {
      return (await get<TagListResponse>('tags', call)).tags
    },
    async listFolders(call = {}) {
      return (await get<FolderListResponse>('folders', call)).folders
    },
    listUsers(call = {}) {
      return get<UsersResponse>('users', call)
    },
    async listParameters(call = {}) {
      return (await get<ParameterListResponse>('parameters', call)).parameters
    },
    async getParameter(parameterId, call = {}) {
      return (await get<{ parameter: Parameter }>(`parameters/${id(parameterId)}`, call)).parameter
    },
    getCurrentUserProfile(call = {}) {
      return get<CurrentUserProfile>('currentUser/profile', call)
    },
    getAuthenticationInformations(call = {}) {
      return get<AuthenticationInformations>('authenticationInformations', call)
    },
    async getPasswordRules(call = {}) {
      return (await get<PasswordRulesResponse>('passwordRules', call)).rules
    },
  }
}
