import { z } from 'zod'

/** Body of `GET /rest/users` (privilege admin_users). */
export const UsersResponseSchema = z
  .object({
    users: z.array(
      z.object({
        id: z.number().int(),
        user_id: z.string(),
        firstname: z.string().nullable(),
        lastname: z.string().nullable(),
        status: z.string(),
        mail: z.string().nullable(),
        mode: z.string(),
      }),
    ),
    quota: z
      .union([
        z.array(z.never()),
        z.object({ actives: z.number().int(), inactives: z.number().int(), userQuota: z.number().int() }),
      ])
      .describe('Empty unless the parameter user_quota is set'),
  })
  .meta({
    id: 'Users',
    description:
      "Root: every user not deleted; others: the users of the caller's entities and below, and users without entity",
  })
/** Body of `GET /rest/users`. */
export type UsersResponse = z.infer<typeof UsersResponseSchema>

const emptyList = z.array(z.never())

/** Body of `GET /rest/currentUser/profile`. */
export const CurrentUserProfileSchema = z
  .object({
    id: z.number().int(),
    user_id: z.string(),
    firstname: z.string().nullable(),
    lastname: z.string().nullable(),
    phone: z.string().nullable(),
    mail: z.string().nullable(),
    initials: z.string().nullable(),
    preferences: z.record(z.string(), z.unknown()),
    external_id: z.union([z.record(z.string(), z.unknown()), emptyList]),
    status: z.string(),
    mode: z.string(),
    featureTour: emptyList,
    signatures: emptyList,
    emailSignatures: emptyList,
    groups: z.array(
      z.object({
        id: z.number().int(),
        can_index: z.boolean(),
        group_id: z.string(),
        group_desc: z.string().nullable(),
        indexation_parameters: z.string().describe('JSON text: {"actions", "entities", "keywords"}'),
        role: z.string(),
        maarch_comment: z.string().nullable(),
      }),
    ),
    entities: z.array(
      z.object({
        id: z.number().int(),
        entity_id: z.string(),
        entity_label: z.string(),
        user_role: z.string(),
        primary_entity: z.enum(['Y', 'N']),
      }),
    ),
    baskets: z
      .array(
        z.object({
          basket_id: z.string(),
          id: z.number().int(),
          group_id: z.string(),
          basket_name: z.string(),
          basket_desc: z.string(),
          group_desc: z.string().nullable(),
          is_visible: z.string(),
          groupSerialId: z.number().int(),
          owner_user_id: z.number().int(),
          basketSearch: z.boolean(),
          userToDisplay: z.string().nullable(),
          enabled: z.boolean(),
          allowed: z.boolean(),
        }),
      )
      .describe("The baskets of the caller's groups the caller has a preference for"),
    assignedBaskets: z
      .array(
        z.object({
          id: z.number().int(),
          basket_id: z.string(),
          basket_name: z.string(),
          owner_user_id: z.number().int(),
          group_id: z.number().int(),
          oldGroupId: z.string(),
          group_desc: z.string().nullable(),
          userToDisplay: z.string(),
        }),
      )
      .describe('Baskets colleagues lent to the caller'),
    redirectedBaskets: z
      .array(
        z.object({
          id: z.number().int(),
          basket_id: z.string(),
          basket_name: z.string(),
          actual_user_id: z.number().int(),
          group_id: z.number().int(),
          group_desc: z.string().nullable(),
          userToDisplay: z.string(),
        }),
      )
      .describe('Baskets the caller lent to colleagues'),
    regroupedBaskets: z.array(
      z.object({
        groupSerialId: z.number().int(),
        groupId: z.string(),
        groupDesc: z.string().nullable(),
        baskets: z.array(
          z.object({ basket_id: z.string(), basket_name: z.string(), basket_desc: z.string(), color: z.string() }),
        ),
      }),
    ),
    passwordRules: z.object({ minLength: z.number().int() }),
    canModifyPassword: z.boolean(),
    privileges: z
      .array(z.string())
      .describe("The service ids of the caller's groups, group by group (duplicates kept); root: ALL_PRIVILEGES"),
    lockAdvancedPrivileges: z.boolean(),
    nbFollowedResources: z.number().int(),
  })
  .meta({ id: 'CurrentUserProfile', description: 'The caller, their groups, entities and privileges' })
/** Body of `GET /rest/currentUser/profile`. */
export type CurrentUserProfile = z.infer<typeof CurrentUserProfileSchema>
