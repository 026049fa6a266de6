import type { Actor } from '../actors/actor.js'
import type {
  DiffusionRoles,
  EntityListTemplates,
  EntityUsers,
  ListTemplate,
  ListTemplateItem,
} from '../api/list-template-schemas.js'
import { fail } from '../errors/domain-error.js'
import { isEmptyParam } from '../processing-page/history-query.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { diffusionRolesFor } from './diffusion-roles.js'
import type {
  ListTemplateDependencies,
  ListTemplateServices,
  ListTemplateType,
  StoredListTemplate,
  StoredListTemplateItem,
} from './ports.js'

/** One query value as PHP reads it: the last of a repeated one. */
function single(value: unknown): unknown {
  return Array.isArray(value) ? value.at(-1) : value
}

/** `?type=`: the two circuits by name; any other value the diffusion lists; absent or empty (PHP's empty()) every kind. */
function templateTypeOf(value: unknown): ListTemplateType | null {
  const type = single(value)
  if (isEmptyParam(type)) return null
  return type === 'visaCircuit' || type === 'opinionCircuit' ? type : 'diffusionList'
}

/** Suspended and deleted users are dropped from a diffusion list, flagged in a circuit. */
const GONE = ['SPD', 'DEL']

/** What each circuit asks of its members (20.10: `hasPrivilege` false without it, or without the user). */
function holdsCircuitPrivilege(type: string, user: StoredListTemplateItem['user']): boolean {
  const held = user?.circuitPrivileges ?? []
  if (type === 'visaCircuit') return held.includes('visa_documents') || held.includes('sign_document')
  if (type === 'opinionCircuit') return held.includes('avis_documents')
  return true
}

/** A template's member as 20.10 shows it; undefined for a user a diffusion list no longer names. */
function shownItem(template: StoredListTemplate, item: StoredListTemplateItem): ListTemplateItem | undefined {
  const row = {
    id: item.id,
    list_template_id: item.listTemplateId,
    item_id: item.itemId,
    item_type: item.itemType,
    item_mode: item.itemMode,
    sequence: item.sequence,
  }
  if (item.itemType === 'entity') return { ...row, labelToDisplay: item.entityLabel, descriptionToDisplay: '' }
  const { user } = item
  const valid = user !== null && !GONE.includes(user.status)
  if (!valid && template.type === 'diffusionList') return undefined
  return {
    ...row,
    isValid: valid,
    labelToDisplay: `${user?.firstname ?? ''} ${user?.lastname ?? ''}`,
    descriptionToDisplay: user?.primaryEntityLabel ?? null,
    hasPrivilege: holdsCircuitPrivilege(template.type, user),
  }
}

/**
 * `GET /rest/listTemplates/entities/{entityId}` as `ListTemplateController::getByEntityId`: the department by its
 * serial id ('Entity does not exist' for anything else: 20.10 fails with a 500 on a non-integer), then its templates
 * of the type asked, each member with what the client shows. Any signed-in user reads them, as in 20.10 (the redirect
 * and indexing forms read the templates of every department they offer); a template another user owns is never
 * shown, where 20.10 would list it when it names the department.
 */
export async function readEntityListTemplates(
  deps: ListTemplateDependencies,
  actor: Actor,
  entityIdText: string | undefined,
  query: Readonly<Record<string, unknown>>,
): Promise<EntityListTemplates> {
  const entityId = databaseIdOf(entityIdText)
  if (entityId === null || (await deps.entities.findById(entityId)) === null) fail('LIST_TEMPLATE_ENTITY_NOT_FOUND')
  const stored = await deps.listTemplates.templatesOfEntity(entityId, templateTypeOf(query.type), actor.id)
  return {
    listTemplates: stored.map(
      (template): ListTemplate => ({
        id: template.id,
        title: template.title,
        description: template.description,
        type: template.type,
        entity_id: template.entityId,
        owner: template.owner,
        items: template.items.flatMap((item) => shownItem(template, item) ?? []),
      }),
    ),
  }
}

/**
 * `GET /rest/entities/{id}/users` as `EntityController::getUsersById`: the department by its serial id ('Entity not
 * found' for anything else: 20.10 fails with a 500 on a non-integer), then its users by last and first name, as the
 * diffusion list's assignee menu offers them. Any signed-in user, as in 20.10 (the forms offer every department).
 * A suspended user is left out too (20.10 lists them): Mailroom never proposes them as an assignee.
 */
export async function readEntityUsers(
  deps: ListTemplateDependencies,
  entityIdText: string | undefined,
): Promise<EntityUsers> {
  const entityId = databaseIdOf(entityIdText)
  const entity = entityId === null ? null : await deps.entities.findById(entityId)
  if (entity === null) fail('ENTITY_NOT_FOUND')
  return { users: [...(await deps.listTemplates.usersOfEntity(entity.entity_id))] }
}

/**
 * `GET /rest/roles` as `ListTemplateController::getRoles`: the roles, what the caller may change in the context
 * asked, and whether the roles of a template are kept when an outgoing letter is indexed (the parameter
 * `keepDiffusionRoleInOutgoingIndexation`, set and not 0).
 */
export async function readDiffusionRoles(
  deps: ListTemplateDependencies,
  actor: Actor,
  query: Readonly<Record<string, unknown>>,
): Promise<DiffusionRoles> {
  const context = single(query.context)
  const keep = await deps.parameters.find('keepDiffusionRoleInOutgoingIndexation')
  return {
    roles: diffusionRolesFor(actor, typeof context === 'string' ? context : undefined),
    parameters: { keepDiffusionRoleInOutgoingIndexation: Boolean(keep?.param_value_int) },
  }
}

/** The templates' reads over their ports (storage implements them, the composition root wires them). */
export function createListTemplateUseCases(deps: ListTemplateDependencies): ListTemplateServices {
  return {
    ofEntity: (actor, entityId, query) => readEntityListTemplates(deps, actor, entityId, query),
    roles: (actor, query) => readDiffusionRoles(deps, actor, query),
    usersOfEntity: (_actor, entityId) => readEntityUsers(deps, entityId),
  }
}
