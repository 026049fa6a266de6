import {
  type IndexingModelListResponse,
  IndexingModelListResponseSchema,
  type IndexingModelResponse,
  IndexingModelResponseSchema,
  IntegerIdPathSchema,
} from '@mailroom/core'
import { referenceReadRoute } from './reference-read-route.js'
import type { RouteDeclaration } from './route-declaration.js'

const model = {
  id: 1,
  label: 'Courrier Arrivée',
  category: 'incoming',
  default: true,
  owner: 1,
  private: false,
  master: null,
  enabled: true,
  mandatoryFile: false,
}

/** GET /rest/indexingModels and GET /rest/indexingModels/{id}. */
export const indexingModelRoutes: readonly RouteDeclaration[] = [
  referenceReadRoute({
    path: '/rest/indexingModels',
    operationId: 'getIndexingModels',
    summary: 'The indexing models',
    description: "Enabled models, public or the caller's own, by id.",
    schema: IndexingModelListResponseSchema,
    answer: 'The models',
    example: { indexingModels: [model] } satisfies IndexingModelListResponse,
    read: (reference, actor) => reference.indexingModels(actor),
  }),
  referenceReadRoute({
    path: '/rest/indexingModels/:id',
    operationId: 'getIndexingModel',
    summary: 'An indexing model with its fields',
    description:
      "Unknown id: 400 Model not found; another user's private model: 400 Model out of perimeter (20.10's " +
      'answers); an id that is not an integer: 400 (500 in 20.10).',
    request: { path: IntegerIdPathSchema },
    schema: IndexingModelResponseSchema,
    answer: 'The model',
    example: {
      indexingModel: {
        ...model,
        fields: [{ identifier: 'doctype', mandatory: true, default_value: null, unit: 'mail', enabled: true }],
      },
    } satisfies IndexingModelResponse,
    errors: ['ROUTE_ID_NOT_INTEGER', 'INDEXING_MODEL_NOT_FOUND', 'INDEXING_MODEL_OUT_OF_PERIMETER'],
    read: (reference, actor, id) => reference.indexingModel(actor, id),
  }),
]
