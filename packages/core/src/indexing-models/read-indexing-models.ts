import type { Actor } from '../actors/actor.js'
import type { IndexingModelListResponse, IndexingModelResponse } from '../api/reference-schemas.js'
import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'
import type { IndexingModelRepository, IndexingModelRow } from './ports.js'

/** A model as 20.10 answers it: `mandatory_file` is renamed `mandatoryFile`. */
function modelOf(row: IndexingModelRow): IndexingModelListResponse['indexingModels'][number] {
  return {
    id: row.id,
    label: row.label,
    category: row.category,
    default: row.default,
    owner: row.owner,
    private: row.private,
    master: row.master,
    enabled: row.enabled,
    mandatoryFile: row.mandatory_file,
  }
}

/** `GET /rest/indexingModels`: enabled models, public or the caller's own. */
export async function listIndexingModels(
  repository: IndexingModelRepository,
  actor: Actor,
): Promise<IndexingModelListResponse> {
  return { indexingModels: (await repository.listVisible(actor.id)).map(modelOf) }
}

/**
 * `GET /rest/indexingModels/{id}` with its fields. 20.10's order: unknown → `Model not found`, another user's
 * private model → `Model out of perimeter` (both 400); an id that is not an integer is a 400 here (500 in 20.10).
 */
export async function readIndexingModel(
  repository: IndexingModelRepository,
  actor: Actor,
  id: string,
): Promise<IndexingModelResponse> {
  const modelId = databaseIdOf(id) ?? fail('ROUTE_ID_NOT_INTEGER')
  const found = await repository.find(modelId)
  if (!found) fail('INDEXING_MODEL_NOT_FOUND')
  if (found.model.private && found.model.owner !== actor.id) fail('INDEXING_MODEL_OUT_OF_PERIMETER')
  return {
    indexingModel: {
      ...modelOf(found.model),
      fields: found.fields.map((field) => ({
        identifier: field.identifier,
        mandatory: field.mandatory,
        default_value: field.default_value ?? null,
        unit: field.unit,
        enabled: field.enabled,
      })),
    },
  }
}
