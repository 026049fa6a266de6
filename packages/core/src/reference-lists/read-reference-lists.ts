import type { Actor } from '../actors/actor.js'
import type {
  CustomFieldListResponse,
  PriorityListResponse,
  StatusListResponse,
  TagListResponse,
} from '../api/reference-schemas.js'
import type { CustomFieldRepository, PriorityRepository, StatusRepository, TagRepository } from './ports.js'

// Any authenticated user reads these lists, as in 20.10 (the administration variants behind
// admin_custom_fields are not served).

/** `GET /rest/statuses`. */
export async function listStatuses(repository: StatusRepository, _actor: Actor): Promise<StatusListResponse> {
  return { statuses: await repository.list() }
}

/** `GET /rest/priorities`. */
export async function listPriorities(repository: PriorityRepository, _actor: Actor): Promise<PriorityListResponse> {
  return { priorities: await repository.list() }
}

/**
 * `GET /rest/customFields`: each listed value as `{key, label}`, both the value, as 20.10 answers a reader
 * without `?admin` (its web client's select, radio and checkbox fields read `key` and `label`).
 */
export async function listCustomFields(
  repository: CustomFieldRepository,
  _actor: Actor,
): Promise<CustomFieldListResponse> {
  const fields = await repository.list()
  return {
    customFields: fields.map((field) => ({
      ...field,
      values: field.values.map((value) => ({ key: value, label: value })),
    })),
  }
}

/** `GET /rest/tags`. */
export async function listTags(repository: TagRepository, _actor: Actor): Promise<TagListResponse> {
  return { tags: await repository.list() }
}
