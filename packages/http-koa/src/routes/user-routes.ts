import {
  type CurrentUserProfile,
  CurrentUserProfileSchema,
  type UsersResponse,
  UsersResponseSchema,
} from '@mailroom/core'
import { referenceReadRoute } from './reference-read-route.js'
import type { RouteDeclaration } from './route-declaration.js'

/** GET /rest/users and GET /rest/currentUser/profile. */
export const userRoutes: readonly RouteDeclaration[] = [
  referenceReadRoute({
    path: '/rest/users',
    operationId: 'getUsers',
    summary: 'The users',
    description:
      "Needs admin_users. Root users see every user not deleted; other administrators the users of their entities and below, and users without entity (20.10's rule).",
    schema: UsersResponseSchema,
    answer: 'The users',
    example: {
      users: [
        { id: 3, user_id: 'bbain', firstname: 'Barbara', lastname: 'BAIN', status: 'OK', mail: null, mode: 'standard' },
      ],
      quota: [],
    } satisfies UsersResponse,
    errors: ['SERVICE_FORBIDDEN'],
    read: (reference, actor) => reference.users(actor),
  }),
  referenceReadRoute({
    path: '/rest/currentUser/profile',
    operationId: 'getCurrentUserProfile',
    summary: "The caller's profile",
    description:
      'The caller, their groups (without perimeter clause), entities and privileges as 20.10 answers them, so a client shows each person only what they may do. Mailroom has no baskets or signatures: those lists are empty.',
    schema: CurrentUserProfileSchema,
    answer: 'The profile',
    example: {
      id: 2,
      user_id: 'cchaplin',
      firstname: 'Charlie',
      lastname: 'CHAPLIN',
      phone: null,
      mail: null,
      initials: null,
      preferences: {},
      external_id: [],
      status: 'OK',
      mode: 'rest',
      featureTour: [],
      signatures: [],
      emailSignatures: [],
      groups: [
        {
          id: 5,
          can_index: true,
          group_id: 'WEBSERVICE',
          group_desc: 'Utilisateurs de WebService',
          indexation_parameters: '{"actions":[],"entities":[],"keywords":["ALL_ENTITIES"]}',
          role: '',
          maarch_comment: null,
        },
      ],
      entities: [
        { id: 1, entity_id: 'VILLE', entity_label: 'Ville de Maarch-les-Bains', user_role: '', primary_entity: 'Y' },
      ],
      baskets: [],
      assignedBaskets: [],
      redirectedBaskets: [],
      regroupedBaskets: [
        { groupSerialId: 5, groupId: 'WEBSERVICE', groupDesc: 'Utilisateurs de WebService', baskets: [] },
      ],
      passwordRules: { minLength: 12 },
      canModifyPassword: true,
      privileges: ['add_links', 'admin_parameters', 'admin_users', 'create_contacts'],
      lockAdvancedPrivileges: true,
      nbFollowedResources: 0,
    } satisfies CurrentUserProfile,
    read: (reference, actor) => reference.profile(actor),
  }),
]
