import { z } from 'zod'
import { fail } from '../errors/domain-error.js'
import {
  ORGANISATION_SECTIONS,
  OrganisationDocumentSchema,
  UserDefinitionSchema,
} from '../organisation/organisation-schema.js'
import { formatIssuePath } from '../organisation/validate-organisation.js'

/** Body of `GET /admin/organisation` and of the plan and apply routes: the organisation document. */
export const OrganisationDocumentBodySchema = OrganisationDocumentSchema.meta({
  id: 'OrganisationDocument',
  description: 'Reference data and users of the installation (docs/organisation.md); every section optional',
})

/** Query of the plan and apply routes. */
export const OrganisationApplyQuerySchema = z
  .object({
    prune: z
      .enum(['true', 'false'])
      .optional()
      .describe('Remove, in each section the document has, what it does not list (never what records use)'),
  })
  .meta({ id: 'OrganisationApplyQuery' })

const keys = z.array(z.string())
const sectionChanges = z.object({ added: keys, changed: keys, removed: keys })

/** Body of the plan and apply routes: what changes (or changed), per section with changes. */
export const OrganisationPlanResponseSchema = z
  .object({
    applied: z.boolean().describe('True when the database was changed'),
    lines: z.array(z.string()).describe('The plan as a person reads it; ["no changes"] when nothing differs'),
    summary: z
      .object(Object.fromEntries(ORGANISATION_SECTIONS.map((s) => [s, sectionChanges.optional()])))
      .describe('Keys added, changed and removed per section'),
  })
  .meta({ id: 'OrganisationPlan' })

/** Query of `GET /admin/organisation/history`. */
export const OrganisationHistoryQuerySchema = z.object({
  limit: z.string().regex(/^\d+$/).optional().describe('How many changes, newest first (default 50, at most 1000)'),
})

/** Body of `GET /admin/organisation/history`. */
export const OrganisationHistoryResponseSchema = z
  .array(
    z.object({
      id: z.number().int(),
      date: z.string().describe('ISO 8601'),
      event: z.string().describe('ORG_APPLY, USER_ADD, USER_PASSWORD, USER_DISABLE or USER_ENABLE'),
      userId: z.number().int().nullable(),
      author: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  )
  .meta({ id: 'OrganisationHistory' })

/** A user as the admin routes show it. */
export const UserSummarySchema = z
  .object({
    id: z.number().int(),
    login: z.string(),
    firstname: z.string().nullable(),
    lastname: z.string().nullable(),
    mail: z.string().nullable(),
    mode: z.string(),
    enabled: z.boolean(),
    groups: z.array(z.string()),
    primaryEntity: z.string().nullable(),
  })
  .meta({ id: 'UserSummary' })

/** Body of `GET /admin/users`. */
export const UserListResponseSchema = z.array(UserSummarySchema).meta({ id: 'UserList' })

/** Body of `POST /admin/users`: a user of the document, with an optional password (under the password policy). */
export const NewUserBodySchema = UserDefinitionSchema.omit({ passwordHash: true })
  .extend({
    password: z
      .string()
      .optional()
      .describe('Checked against the password policy; without it the user cannot log in yet'),
  })
  .meta({ id: 'NewUser' })

/** Path of the user routes. */
export const UserLoginPathSchema = z.object({ login: z.string().describe('The login, any case') })

/** Body of `PUT /admin/users/{login}/password`. */
export const UserPasswordBodySchema = z.strictObject({ password: z.string().min(1) }).meta({ id: 'UserPassword' })

/** Body of `PUT /admin/users/{login}/status`. */
export const UserStatusBodySchema = z.strictObject({ enabled: z.boolean() }).meta({ id: 'UserStatus' })

/** Parses an admin request body with its schema; ORGANISATION_INVALID lists every issue with its path otherwise. */
export function parseAdminBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body)
  if (parsed.success) return parsed.data
  return fail('ORGANISATION_INVALID', {
    issues: parsed.error.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message })),
  })
}

/** Body of the plan and apply routes. */
export type OrganisationPlanResponse = z.infer<typeof OrganisationPlanResponseSchema>
/** Body of `GET /admin/organisation/history`. */
export type OrganisationHistoryResponse = z.infer<typeof OrganisationHistoryResponseSchema>
/** A user as the admin routes show it. */
export type UserSummaryResponse = z.infer<typeof UserSummarySchema>
/** Body of `POST /admin/users`. */
export type NewUserBody = z.input<typeof NewUserBodySchema>
