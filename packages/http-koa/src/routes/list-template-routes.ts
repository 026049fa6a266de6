import {
  type DiffusionRoles,
  DiffusionRolesQuerySchema,
  DiffusionRolesSchema,
  type EntityListTemplates,
  EntityListTemplatesPathSchema,
  EntityListTemplatesQuerySchema,
  EntityListTemplatesSchema,
  type EntityUsers,
  EntityUsersPathSchema,
  EntityUsersSchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { json, type RouteDeclaration } from './route-declaration.js'

/**
 * What 20.10's diffusion list editor reads: a department's templates (the assignee and copies the redirect dialog
 * and the indexing form propose for it), its users (the assignee menu) and the roles of a list.
 */
export const listTemplateRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/rest/listTemplates/entities/:entityId',
    operationId: 'getEntityListTemplates',
    tag: 'diffusion',
    summary: "A department's diffusion list templates",
    description:
      'The templates of the department (its serial id): its diffusion list (the assignee, the copies…) and its visa and opinion circuits, or only the type asked, each member with its name and primary department. ' +
      'A diffusion list leaves out a suspended or removed user; a circuit flags them (`isValid`) and the members without the privilege it needs (`hasPrivilege`). ' +
      "Any signed-in user may read them, as in 20.10; a template another user owns is never shown. An id that names no department (or is not one) answers 400 'Entity does not exist'.",
    security: 'user',
    request: { path: EntityListTemplatesPathSchema, query: EntityListTemplatesQuerySchema },
    responses: {
      '200': {
        description: 'The templates, by id',
        content: json(EntityListTemplatesSchema, {
          listTemplates: [
            {
              id: 7,
              title: 'Petite enfance',
              description: 'Petite enfance',
              type: 'diffusionList',
              entity_id: 7,
              owner: null,
              items: [
                {
                  id: 15,
                  list_template_id: 7,
                  item_id: 15,
                  item_type: 'user',
                  item_mode: 'dest',
                  sequence: 0,
                  isValid: true,
                  labelToDisplay: 'Sabrina SAPORTA',
                  descriptionToDisplay: 'Petite enfance',
                  hasPrivilege: true,
                },
                {
                  id: 16,
                  list_template_id: 7,
                  item_id: 12,
                  item_type: 'entity',
                  item_mode: 'cc',
                  sequence: 1,
                  labelToDisplay: 'Secrétariat Général',
                  descriptionToDisplay: '',
                },
              ],
            },
          ],
        } satisfies EntityListTemplates),
      },
    },
    errors: ['LIST_TEMPLATE_ENTITY_NOT_FOUND'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.listTemplates.ofEntity(actorOf(ctx), ctx.params.entityId, ctx.query)
      },
  },
  {
    method: 'get',
    path: '/rest/roles',
    operationId: 'getDiffusionRoles',
    tag: 'diffusion',
    summary: 'The roles of a diffusion list',
    description:
      'The assignee (dest), the copies (cc) and the opinions (avis), as 20.10 ships its department lists, and whether the caller may change each in the `context` asked: in a redirect every one; in indexation, process or details as the privileges `update_diffusion_<context>` (every role) and `update_diffusion_except_recipient_<context>` (all but the assignee) allow; no `canUpdate` otherwise. ' +
      '`keepDiffusionRoleInOutgoingIndexation` is the parameter of that name, set and not 0.',
    security: 'user',
    request: { query: DiffusionRolesQuerySchema },
    responses: {
      '200': {
        description: 'The roles',
        content: json(DiffusionRolesSchema, {
          roles: [
            { id: 'dest', label: 'Attributaire', keepInListInstance: false, canUpdate: true },
            { id: 'cc', label: 'En copie', keepInListInstance: true, canUpdate: true },
            { id: 'avis', label: 'Pour avis', keepInListInstance: false, canUpdate: true },
          ],
          parameters: { keepDiffusionRoleInOutgoingIndexation: true },
        } satisfies DiffusionRoles),
      },
    },
    errors: [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.listTemplates.roles(actorOf(ctx), ctx.query)
      },
  },
  {
    method: 'get',
    path: '/rest/entities/:id/users',
    operationId: 'getEntityUsers',
    tag: 'diffusion',
    summary: "A department's users, whom the diffusion list offers as its assignee",
    description:
      "The members of the department (its serial id), neither deleted, absent nor suspended (20.10 lists suspended ones too), by last then first name, each with the label of their primary department. Any signed-in user, as in 20.10: the forms offer every department. 'Entity not found' for an id that names none.",
    security: 'user',
    request: { path: EntityUsersPathSchema },
    responses: {
      '200': {
        description: 'The users',
        content: json(EntityUsersSchema, {
          users: [
            {
              id: 12,
              user_id: 'ssaporta',
              firstname: 'Sabrina',
              lastname: 'SAPORTA',
              labelToDisplay: 'Sabrina SAPORTA',
              descriptionToDisplay: 'Petite Enfance',
            },
          ],
        } satisfies EntityUsers),
      },
    },
    errors: ['ENTITY_NOT_FOUND'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.listTemplates.usersOfEntity(actorOf(ctx), ctx.params.id)
      },
  },
]
