import type { RedirectUser } from '../actions/ports.js'
import type { Actor } from '../actors/actor.js'
import type { DiffusionRoles, EntityListTemplates, EntityUsers } from '../api/list-template-schemas.js'
import type { EntityRepository } from '../entities/ports.js'
import type { ParameterRepository } from '../parameters/ports.js'

/** The kinds of template 20.10 keeps: a department's diffusion list, its visa and opinion circuits. */
export type ListTemplateType = 'diffusionList' | 'visaCircuit' | 'opinionCircuit'

/** The privileges a member of a circuit needs (20.10 flags the members without them). */
export type CircuitPrivilege = 'visa_documents' | 'sign_document' | 'avis_documents'

/** A user named by a template, as stored: what the answer shows of them. */
export interface TemplateUser {
  readonly firstname: string | null
  readonly lastname: string | null
  /** users.status: OK, ABS, SPD (suspended), DEL. */
  readonly status: string
  readonly primaryEntityLabel: string | null
  /** Which of the circuit privileges the user holds through their groups (every one for a root user). */
  readonly circuitPrivileges: readonly CircuitPrivilege[]
}

/** One stored member of a template, with what it names (null: nothing by that id any more). */
export interface StoredListTemplateItem {
  readonly id: number
  readonly listTemplateId: number
  readonly itemId: number
  readonly itemType: 'user' | 'entity'
  readonly itemMode: string
  readonly sequence: number
  /** For a user item: the user, or null when no user has that id. */
  readonly user: TemplateUser | null
  /** For an entity item: the entity's label, or null when no entity has that id. */
  readonly entityLabel: string | null
}

/** One stored template with its members in their sequence. */
export interface StoredListTemplate {
  readonly id: number
  readonly title: string
  readonly description: string | null
  readonly type: string
  readonly entityId: number | null
  readonly owner: number | null
  readonly items: readonly StoredListTemplateItem[]
}

/** Storage side of the templates' reads. */
export interface ListTemplateStore {
  /**
   * The templates of a department (serial id), of one type or of every type (null), that `readerId` may see: the
   * department's, and the reader's own. By id.
   */
  templatesOfEntity(
    entityId: number,
    type: ListTemplateType | null,
    readerId: number,
  ): Promise<readonly StoredListTemplate[]>
  /** The users of a department (its code) a diffusion list may name: not deleted, absent nor suspended. */
  usersOfEntity(entityCode: string): Promise<readonly RedirectUser[]>
}

/** What the templates' reads need from the outside. */
export interface ListTemplateDependencies {
  readonly listTemplates: ListTemplateStore
  readonly entities: Pick<EntityRepository, 'findById'>
  readonly parameters: Pick<ParameterRepository, 'find'>
}

/** The reads of 20.10's diffusion list templates and roles. */
export interface ListTemplateServices {
  /** `GET /rest/listTemplates/entities/{entityId}`: a department's templates. */
  ofEntity(
    actor: Actor,
    entityId: string | undefined,
    query: Readonly<Record<string, unknown>>,
  ): Promise<EntityListTemplates>
  /** `GET /rest/entities/{id}/users`: whom the diffusion list offers as a department's assignee. */
  usersOfEntity(actor: Actor, entityId: string | undefined): Promise<EntityUsers>
  /** `GET /rest/roles`: the roles of a diffusion list and whether the caller may change them. */
  roles(actor: Actor, query: Readonly<Record<string, unknown>>): Promise<DiffusionRoles>
}
