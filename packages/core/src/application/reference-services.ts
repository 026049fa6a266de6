import type { Actor } from '../actors/actor.js'
import type { ParameterListResponse, ParameterResponse } from '../api/parameter-schemas.js'
import type {
  CustomFieldListResponse,
  DoctypeResponse,
  DoctypeTreeResponse,
  EntityListResponse,
  FolderListResponse,
  IndexingModelListResponse,
  IndexingModelResponse,
  PriorityListResponse,
  StatusListResponse,
  TagListResponse,
} from '../api/reference-schemas.js'
import type { CurrentUserProfile, UsersResponse } from '../api/user-schemas.js'
import type { DoctypeRepository } from '../doctypes/ports.js'
import { doctypeTree, readDoctype } from '../doctypes/read-doctypes.js'
import { listEntities } from '../entities/list-entities.js'
import type { EntityRepository } from '../entities/ports.js'
import { listFolders } from '../folders/list-folders.js'
import type { FolderRepository } from '../folders/ports.js'
import type { IndexingModelRepository } from '../indexing-models/ports.js'
import { listIndexingModels, readIndexingModel } from '../indexing-models/read-indexing-models.js'
import type { ParameterRepository } from '../parameters/ports.js'
import { listParameters, readParameter } from '../parameters/read-parameters.js'
import type {
  CustomFieldRepository,
  PriorityRepository,
  StatusRepository,
  TagRepository,
} from '../reference-lists/ports.js'
import { listCustomFields, listPriorities, listStatuses, listTags } from '../reference-lists/read-reference-lists.js'
import type { UserDirectory } from '../users/ports.js'
import { currentUserProfile, listUsers, type ProfileSettings } from '../users/read-users.js'

/**
 * The reference data a client reads around the interface (issue 32), as Maarch 20.10 serves it: the lists a
 * capture tool or the console offers instead of typed ids, the parameters, and the caller's profile.
 */
export interface ReferenceServices {
  /** `GET /rest/entities`. */
  entities(actor: Actor): Promise<EntityListResponse>
  /** `GET /rest/doctypes`. */
  doctypeTree(actor: Actor): Promise<DoctypeTreeResponse>
  /** `GET /rest/doctypes/types/{id}`. */
  doctype(actor: Actor, id: string): Promise<DoctypeResponse>
  /** `GET /rest/statuses`. */
  statuses(actor: Actor): Promise<StatusListResponse>
  /** `GET /rest/priorities`. */
  priorities(actor: Actor): Promise<PriorityListResponse>
  /** `GET /rest/indexingModels`. */
  indexingModels(actor: Actor): Promise<IndexingModelListResponse>
  /** `GET /rest/indexingModels/{id}`. */
  indexingModel(actor: Actor, id: string): Promise<IndexingModelResponse>
  /** `GET /rest/customFields`. */
  customFields(actor: Actor): Promise<CustomFieldListResponse>
  /** `GET /rest/tags`. */
  tags(actor: Actor): Promise<TagListResponse>
  /** `GET /rest/folders`. */
  folders(actor: Actor): Promise<FolderListResponse>
  /** `GET /rest/users` (admin_users). */
  users(actor: Actor): Promise<UsersResponse>
  /** `GET /rest/parameters`. */
  parameters(actor: Actor): Promise<ParameterListResponse>
  /** `GET /rest/parameters/{id}`. */
  parameter(actor: Actor, id: string): Promise<ParameterResponse>
  /** `GET /rest/currentUser/profile`. */
  profile(actor: Actor): Promise<CurrentUserProfile>
}

/** The read sides the reference use cases run on (storage implements them). */
export interface ReferenceRepositories {
  readonly entities: EntityRepository
  readonly doctypes: DoctypeRepository
  readonly statuses: StatusRepository
  readonly priorities: PriorityRepository
  readonly indexingModels: IndexingModelRepository
  readonly customFields: CustomFieldRepository
  readonly tags: TagRepository
  readonly folders: FolderRepository
  readonly users: UserDirectory
  readonly parameters: ParameterRepository
}

/** The reference use cases over their repositories. */
export function createReferenceUseCases(
  repositories: ReferenceRepositories,
  settings: ProfileSettings,
): ReferenceServices {
  const r = repositories
  return {
    entities: (actor) => listEntities(r.entities, actor),
    doctypeTree: (actor) => doctypeTree(r.doctypes, actor),
    doctype: (actor, id) => readDoctype(r.doctypes, actor, id),
    statuses: (actor) => listStatuses(r.statuses, actor),
    priorities: (actor) => listPriorities(r.priorities, actor),
    indexingModels: (actor) => listIndexingModels(r.indexingModels, actor),
    indexingModel: (actor, id) => readIndexingModel(r.indexingModels, actor, id),
    customFields: (actor) => listCustomFields(r.customFields, actor),
    tags: (actor) => listTags(r.tags, actor),
    folders: (actor) => listFolders(r.folders, actor),
    users: (actor) => listUsers(r.users, r.entities, actor),
    parameters: (actor) => listParameters(r.parameters, actor),
    parameter: (actor, id) => readParameter(r.parameters, actor, id),
    profile: (actor) => currentUserProfile(r.users, settings, actor),
  }
}
