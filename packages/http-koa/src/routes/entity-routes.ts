import {
  type EntityListResponse,
  EntityListResponseSchema,
  EntityPathSchema,
  type EntityResponse,
  EntityResponseSchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { json, type RouteDeclaration } from './route-declaration.js'

/** GET /rest/entities. */
export const entityListRoute: RouteDeclaration = {
  method: 'get',
  path: '/rest/entities',
  operationId: 'getEntities',
  tag: 'entities',
  summary: 'Every enabled entity, as a tree',
  description:
    "Every enabled entity as a jsTree node (20.10's shape), top-level entities first. allowed marks the caller's " +
    'entities and those below them (root users: all); the others are shown disabled.',
  security: 'user',
  responses: {
    '200': {
      description: 'The entities',
      content: json(EntityListResponseSchema, {
        entities: [
          {
            id: 'VILLE',
            entity_id: 'VILLE',
            entity_label: 'Ville de Maarch-les-Bains',
            parent_entity_id: '',
            parent_id: null,
            serialId: 1,
            parentSerialId: '#',
            parent: '#',
            icon: 'fa fa-building',
            allowed: true,
            state: { opened: true },
            text: 'Ville de Maarch-les-Bains',
          },
        ],
      } satisfies EntityListResponse),
    },
  },
  errors: [],
  serve:
    ({ services }) =>
    async (ctx) => {
      ctx.body = await services.reference.entities(actorOf(ctx))
    },
}

/** GET /rest/entities/{id}. */
export const entityRoute: RouteDeclaration = {
  method: 'get',
  path: '/rest/entities/:id',
  operationId: 'getEntity',
  tag: 'entities',
  summary: 'Read an entity',
  security: 'user',
  request: { path: EntityPathSchema },
  responses: {
    '200': {
      description: 'The entity',
      content: json(EntityResponseSchema, {
        entity: {
          entity_id: 'PJS',
          entity_label: 'Pôle Jeunesse et Sport',
          short_label: 'PJS',
          entity_type: 'Service',
          enabled: 'Y',
          adrs_1: null,
          adrs_2: null,
          adrs_3: null,
          zipcode: null,
          city: null,
          country: null,
          email: null,
          business_id: null,
          parent_entity_id: 'DGS',
          ldap_id: null,
          archival_agency: null,
          archival_agreement: null,
          entity_full_name: 'Ville de Maarch-les-Bains / Direction Générale des Services / Pôle Jeunesse et Sport',
        },
      } satisfies EntityResponse),
    },
  },
  errors: ['ENTITY_NOT_FOUND', 'ENTITY_ID_INVALID'],
  serve:
    ({ services }) =>
    async (ctx) => {
      ctx.body = { entity: await services.entities.read(actorOf(ctx), ctx.params.id ?? '') }
    },
}
