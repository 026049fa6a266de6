import {
  type ChangeAuthor,
  DEFAULT_PASSWORD_POLICY,
  domainError,
  fail,
  isDomainError,
  type KnownReferences,
  type OrganisationApplyResult,
  type OrganisationIssue,
  type OrganisationPlan,
  type OrganisationServices,
  type OrganisationState,
  type PasswordHasher,
  type PasswordPolicy,
  passwordPolicyViolations,
  planOrganisation,
  type UserSummary,
  validateOrganisation,
} from '@mailroom/core'
import { describePlan, isEmptyPlan, type ORGANISATION_SECTIONS, summarisePlan } from '@mailroom/core/internal'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { Database } from '../database/schema.js'
import { applyOrganisationPlan } from './apply-organisation.js'
import { parseOrganisationText } from './organisation-text.js'
import { ENABLED_STATUSES, readOrganisation, readOrganisationState } from './read-organisation.js'

/** Organisation and user administration over one database (core's OrganisationServices). */
export type OrganisationAdmin = OrganisationServices

/** What organisation administration needs. */
export interface OrganisationAdminDependencies {
  readonly db: Kysely<Database>
  readonly hasher: PasswordHasher
  readonly passwordPolicy?: Partial<PasswordPolicy>
  /** Called after every committed change, so this process forgets what it kept of users at once. */
  readonly onChange?: () => void
}

const OPERATOR: ChangeAuthor = { userId: null, name: 'operator' }
const HISTORY_TABLE = 'organisation'
/** Serialises organisation changes: two applies planned on the same state would otherwise both pass. */
const ADVISORY_LOCK = 0x6d61696c

/** Names stored outside the document that it may name: none for a section it has and prunes. */
function knownReferences(document: Record<string, unknown>, state: OrganisationState, prune: boolean): KnownReferences {
  const keep = (section: (typeof ORGANISATION_SECTIONS)[number]) => !(prune && Array.isArray(document[section]))
  const o = state.organisation
  return {
    entities: keep('entities')
      ? (o.entities ?? []).flatMap((e) => [e.id, ...(e.serialId === undefined ? [] : [String(e.serialId)])])
      : [],
    groups: keep('groups') ? (o.groups ?? []).map((g) => g.id) : [],
    users: keep('users') ? (o.users ?? []).map((u) => u.login) : [],
    doctypeFirstLevels: keep('doctypeFirstLevels') ? (o.doctypeFirstLevels ?? []).map((l) => l.id) : [],
    doctypeSecondLevels: keep('doctypeSecondLevels') ? (o.doctypeSecondLevels ?? []).map((l) => l.id) : [],
    indexingModels: keep('indexingModels') ? (o.indexingModels ?? []).map((m) => m.id) : [],
    folders: keep('folders') ? (o.folders ?? []).map((f) => f.id) : [],
    statuses: keep('statuses') ? (o.statuses ?? []).map((s) => s.id) : [],
    actions: keep('actions') ? (o.actions ?? []).map((a) => a.id) : [],
    // Clauses stored now, kept even where the clause language cannot take them (an import carried them).
    clauses: (o.baskets ?? []).flatMap((b) => [b.clause, ...b.groups.flatMap((g) => g.actions.map((l) => l.where))]),
  }
}

function asDocumentValue(input: unknown): unknown {
  return typeof input === 'string' ? parseOrganisationText(input) : input
}

/**
 * A refusal of the database the plan could not foresee, as an issue: a reference or uniqueness violation,
 * text PostgreSQL cannot hold (NUL in JSON values) or too long for its column.
 */
const REFUSALS = new Set(['23503', '23505', '22P05', '22021', '22001'])

function databaseIssue(error: unknown): OrganisationIssue | null {
  const e = error as { code?: string; detail?: string; message?: string }
  if (e?.code === undefined || !REFUSALS.has(e.code)) return null
  return { path: '(database)', message: e.detail ?? e.message ?? 'refused' }
}

async function recordHistory(
  trx: Kysely<Database> | Transaction<Database>,
  event: string,
  author: ChangeAuthor,
  details: Record<string, unknown>,
): Promise<void> {
  await trx
    .insertInto('history')
    .values({
      table_name: HISTORY_TABLE,
      record_id: null,
      event_type: event,
      user_id: author.userId,
      info: JSON.stringify({ author: author.name, ...details }),
      id_module: 'admin',
      remote_ip: null,
      event_id: 'organisation',
    })
    .execute()
}

/** Builds organisation administration over a database. */
export function createOrganisationAdmin(deps: OrganisationAdminDependencies): OrganisationAdmin {
  const { db, hasher } = deps
  const policy = { ...DEFAULT_PASSWORD_POLICY, ...deps.passwordPolicy }

  function checkPassword(password: string): void {
    if (typeof password !== 'string' || password.length === 0) fail('PASSWORD_MISSING')
    const broken = passwordPolicyViolations(password, policy)
    if (broken.length > 0) fail('PASSWORD_POLICY', { rules: broken })
  }

  async function planIn(
    trx: Kysely<Database>,
    value: unknown,
    prune: boolean,
    acceptUnreadableClauses = false,
  ): Promise<OrganisationPlan> {
    const state = await readOrganisationState(trx)
    const record = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {}
    const validation = validateOrganisation(value, knownReferences(record, state, prune), { acceptUnreadableClauses })
    if (!validation.ok) fail('ORGANISATION_INVALID', { issues: validation.issues })
    const plan = planOrganisation(validation.document, state, { prune })
    if (plan.refused.length > 0) fail('ORGANISATION_REFUSED', { issues: plan.refused })
    return plan
  }

  function result(plan: OrganisationPlan, applied: boolean): OrganisationApplyResult {
    return { plan, summary: summarisePlan(plan), lines: describePlan(plan), applied }
  }

  /** Runs one change in a transaction holding the organisation lock; a refusal of the database becomes ORGANISATION_REFUSED. */
  async function change<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    try {
      const value = await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${ADVISORY_LOCK})`.execute(trx)
        return work(trx)
      })
      deps.onChange?.()
      return value
    } catch (error) {
      const issue = isDomainError(error) ? null : databaseIssue(error)
      if (issue !== null) throw domainError('ORGANISATION_REFUSED', { issues: [issue] })
      throw error
    }
  }

  async function userSummary(trx: Kysely<Database>, login: string): Promise<UserSummary> {
    const users = await listUsersIn(trx, login)
    return users[0] ?? fail('USER_NOT_FOUND', { login })
  }

  async function listUsersIn(trx: Kysely<Database>, login?: string): Promise<UserSummary[]> {
    let query = trx
      .selectFrom('users')
      .select(['id', 'user_id', 'firstname', 'lastname', 'mail', 'mode', 'status'])
      .orderBy('user_id')
    if (login !== undefined) query = query.where(sql`lower(user_id)`, '=', login.toLowerCase())
    const users = await query.execute()
    if (users.length === 0) return []
    const ids = users.map((u) => u.id)
    const [groups, primaries] = await Promise.all([
      trx
        .selectFrom('usergroup_content as uc')
        .innerJoin('usergroups as g', 'g.id', 'uc.group_id')
        .select(['uc.user_id', 'g.group_id'])
        .where('uc.user_id', 'in', ids)
        .orderBy('g.group_id')
        .execute(),
      trx
        .selectFrom('users_entities')
        .select(['user_id', 'entity_id'])
        .where('user_id', 'in', ids)
        .where('primary_entity', '=', 'Y')
        .execute(),
    ])
    return users.map((u) => ({
      id: u.id,
      login: u.user_id,
      firstname: u.firstname,
      lastname: u.lastname,
      mail: u.mail,
      mode: u.mode,
      enabled: ENABLED_STATUSES.includes(u.status),
      groups: groups.filter((g) => g.user_id === u.id).map((g) => g.group_id),
      primaryEntity: primaries.find((p) => p.user_id === u.id)?.entity_id ?? null,
    }))
  }

  return {
    export: (options) => readOrganisation(db, options),

    async plan(input, options = {}) {
      const value = asDocumentValue(input)
      return result(await planIn(db, value, options.prune === true), false)
    },

    async apply(input, options = {}) {
      const value = asDocumentValue(input)
      const prune = options.prune === true
      const unreadable = options.acceptUnreadableClauses === true
      if (options.dryRun) return result(await planIn(db, value, prune, unreadable), false)
      return change(async (trx) => {
        const plan = await planIn(trx, value, prune, unreadable)
        if (isEmptyPlan(plan)) return result(plan, false)
        await applyOrganisationPlan(trx, plan)
        await recordHistory(trx, 'ORG_APPLY', options.author ?? OPERATOR, { prune, summary: summarisePlan(plan) })
        return result(plan, true)
      })
    },

    async history(options = {}) {
      const rows = await db
        .selectFrom('history')
        .select(['id', 'event_date', 'event_type', 'user_id', 'info'])
        .where('table_name', '=', HISTORY_TABLE)
        .orderBy('id', 'desc')
        .limit(Math.min(Math.max(options.limit ?? 50, 1), 1000))
        .execute()
      return rows.map((row) => {
        const info = JSON.parse(row.info ?? '{}') as Record<string, unknown>
        const { author, ...details } = info
        return {
          id: Number(row.id),
          date: new Date(row.event_date),
          event: row.event_type,
          userId: row.user_id,
          author: String(author ?? ''),
          details,
        }
      })
    },

    async addUser(user, author = OPERATOR) {
      // Callers of the library may pass anything: the login is needed before the document checks run.
      if (user === null || typeof user !== 'object' || typeof user.login !== 'string')
        fail('ORGANISATION_INVALID', { issues: [{ path: 'login', message: 'expected a string' }] })
      const { password, ...definition } = user
      if (password !== undefined) checkPassword(password)
      const passwordHash = password === undefined ? undefined : await hasher.hash(password)
      return change(async (trx) => {
        const existing = await trx
          .selectFrom('users')
          .select('id')
          .where(sql`lower(user_id)`, '=', user.login.toLowerCase())
          .executeTakeFirst()
        if (existing) fail('USER_ALREADY_EXISTS', { login: user.login })
        const plan = await planIn(
          trx,
          { version: 1, users: [{ ...definition, ...(passwordHash === undefined ? {} : { passwordHash }) }] },
          false,
        )
        await applyOrganisationPlan(trx, plan)
        await recordHistory(trx, 'USER_ADD', author, { login: user.login })
        return userSummary(trx, user.login)
      })
    },

    async setPassword(login, password, author = OPERATOR) {
      checkPassword(password)
      const hash = await hasher.hash(password)
      await change(async (trx) => {
        // A new password ends the sessions opened with the old one.
        const updated = await trx
          .updateTable('users')
          .set({ password: hash, refresh_token: '[]', locked_until: null, failed_authentication: 0 })
          .where(sql`lower(user_id)`, '=', login.toLowerCase())
          .executeTakeFirst()
        if (Number(updated.numUpdatedRows) === 0) fail('USER_NOT_FOUND', { login })
        await recordHistory(trx, 'USER_PASSWORD', author, { login })
      })
    },

    async setEnabled(login, enabled, author = OPERATOR) {
      return change(async (trx) => {
        const before = await userSummary(trx, login)
        if (before.enabled !== enabled) {
          await trx
            .updateTable('users')
            .set({
              status: enabled ? 'OK' : 'SPD',
              ...(enabled ? {} : { refresh_token: '[]', service_token_id: null }),
            })
            .where('id', '=', before.id)
            .execute()
          await recordHistory(trx, enabled ? 'USER_ENABLE' : 'USER_DISABLE', author, { login: before.login })
        }
        return userSummary(trx, login)
      })
    },

    listUsers: () => listUsersIn(db),
  }
}
