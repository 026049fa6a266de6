import { type Actor, displayName, isRoot } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import type { OrganisationDocument, UserDefinitionInput } from './organisation-schema.js'
import type { OrganisationPlan, OrganisationPlanSummary } from './plan-organisation.js'

/** Who makes a change, as history records it: a user (HTTP, library) or an operator (CLI). */
export interface ChangeAuthor {
  readonly userId: number | null
  readonly name: string
}

/** Options of an apply. */
export interface ApplyOrganisationOptions {
  /** Remove, in each section the document has, what it does not list (never what records use). */
  readonly prune?: boolean
  /** Validate and plan only; change nothing. */
  readonly dryRun?: boolean
  readonly author?: ChangeAuthor
  /**
   * Accept basket clauses and action conditions the clause language cannot take, stored as they are (an
   * importer carrying a Maarch installation whole, which reports them). Refused otherwise unless stored already.
   */
  readonly acceptUnreadableClauses?: boolean
}

/** What an apply (or a dry run, or a plan) found and did. */
export interface OrganisationApplyResult {
  readonly plan: OrganisationPlan
  readonly summary: OrganisationPlanSummary
  /** The plan as lines (`users: +2 ~1 -0 (…)`, or `no changes`). */
  readonly lines: readonly string[]
  /** True when the database was changed (false for a dry run, a plan or an empty plan). */
  readonly applied: boolean
}

/** One change recorded by organisation administration. */
export interface OrganisationHistoryEntry {
  readonly id: number
  readonly date: Date
  /** ORG_APPLY, USER_ADD, USER_PASSWORD, USER_DISABLE or USER_ENABLE. */
  readonly event: string
  readonly userId: number | null
  readonly author: string
  /** What changed: `{ prune, summary }` for ORG_APPLY, `{ login }` for user events. */
  readonly details: Record<string, unknown>
}

/** A user as `user list` and the admin routes show it. */
export interface UserSummary {
  readonly id: number
  readonly login: string
  readonly firstname: string | null
  readonly lastname: string | null
  readonly mail: string | null
  readonly mode: string
  readonly enabled: boolean
  readonly groups: readonly string[]
  readonly primaryEntity: string | null
}

/** A user to add: a user definition of the document (its groups and entities must exist) and an optional password. */
export type NewUser = Omit<UserDefinitionInput, 'passwordHash'> & { readonly password?: string }

/**
 * Organisation and user administration: the use cases behind `mailroom org|user`, the embedding API and the
 * /admin routes. Every change is validated whole first, made in one transaction, and recorded in history.
 */
export interface OrganisationServices {
  /** The organisation as a document (password hashes only when asked). */
  export(options?: { readonly withPasswordHashes?: boolean }): Promise<OrganisationDocument>
  /** Validates (YAML/JSON text or a parsed value) and plans without changing anything. */
  plan(input: unknown, options?: { readonly prune?: boolean }): Promise<OrganisationApplyResult>
  /** Validates, plans and applies in one transaction; records the plan in history. */
  apply(input: unknown, options?: ApplyOrganisationOptions): Promise<OrganisationApplyResult>
  /** Changes recorded, newest first (at most `limit`, default 50, up to 1000). */
  history(options?: { readonly limit?: number }): Promise<OrganisationHistoryEntry[]>
  addUser(user: NewUser, author?: ChangeAuthor): Promise<UserSummary>
  /** Sets a password under the password policy; sessions opened before (refresh tokens) end. */
  setPassword(login: string, password: string, author?: ChangeAuthor): Promise<void>
  /** Enables or disables a user; a disabled user's tokens stop working at once. */
  setEnabled(login: string, enabled: boolean, author?: ChangeAuthor): Promise<UserSummary>
  listUsers(): Promise<UserSummary[]>
}

/** Administration is for root users only (ADMIN_ROOT_ONLY otherwise); returns who history will name. */
export function administratorOf(actor: Actor): ChangeAuthor {
  if (!isRoot(actor)) fail('ADMIN_ROOT_ONLY')
  return { userId: actor.id, name: `${actor.login} (${displayName(actor)})` }
}
