import { fail } from '../errors/domain-error.js'
import type { ChangeAuthor, OrganisationServices } from '../organisation/organisation-services.js'
import type { OrganisationPlanSummary } from '../organisation/plan-organisation.js'
import type { DirectoryAccount } from './directory-account.js'
import { type DirectorySyncMappingInput, readDirectoryMapping } from './directory-mapping.js'
import { planDirectorySync } from './plan-directory-sync.js'

/** Options of a user sync. */
export interface DirectorySyncOptions {
  /** Validate and plan only; change nothing. */
  readonly dryRun?: boolean
  readonly author?: ChangeAuthor
}

/** What a user sync found and did. */
export interface DirectorySyncResult {
  /** The plan as `org apply` prints it (`users: +2 ~1 -0 (…)`, or `no changes`). */
  readonly lines: readonly string[]
  /** Accounts skipped and why, users disabled. */
  readonly notes: readonly string[]
  readonly summary: OrganisationPlanSummary
  /** True when the database was changed. */
  readonly applied: boolean
}

/**
 * Provisions, updates and disables `ldap` users from the directory's accounts (planDirectorySync), through the
 * organisation document's apply: the same validation (groups and entities must exist), one transaction, and a
 * history entry. A search that found nobody changes nothing: it is far likelier a wrong base or filter than a
 * directory emptied overnight, and it would disable every directory user.
 */
export async function syncDirectoryUsers(
  organisation: OrganisationServices,
  accounts: readonly DirectoryAccount[],
  mappingInput: DirectorySyncMappingInput = {},
  options: DirectorySyncOptions = {},
): Promise<DirectorySyncResult> {
  const mapping = readDirectoryMapping(mappingInput)
  if (accounts.length === 0) fail('DIRECTORY_SYNC_FOUND_NOBODY')
  const current = await organisation.export()
  const { document, notes } = planDirectorySync(accounts, current.users ?? [], mapping)
  const result = await organisation.apply(document, {
    dryRun: options.dryRun === true,
    ...(options.author === undefined ? {} : { author: options.author }),
  })
  return { lines: result.lines, notes, summary: result.summary, applied: result.applied }
}
