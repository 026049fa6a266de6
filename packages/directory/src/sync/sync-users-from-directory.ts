import {
  type DirectorySyncMappingInput,
  type DirectorySyncOptions,
  type DirectorySyncResult,
  type OrganisationServices,
  readDirectoryMapping,
  syncDirectoryUsers,
} from '@mailroom/core'
import { createLdapAccountSource, type LdapAccountSearchSettings } from './ldap-account-search.js'

/** The directory's connection, service account, base and filter; attributes and group entries come from the mapping. */
export type LdapSyncSettings = Omit<LdapAccountSearchSettings, 'attributes' | 'groupEntries'>

/**
 * `mailroom user sync` as a library call: reads the directory's people and provisions, updates and disables
 * `ldap` users through the organisation's apply (`mailroom.organisation`), or only plans with `dryRun`.
 */
export async function syncUsersFromDirectory(
  organisation: OrganisationServices,
  settings: LdapSyncSettings,
  mappingInput: DirectorySyncMappingInput = {},
  options: DirectorySyncOptions = {},
): Promise<DirectorySyncResult> {
  const mapping = readDirectoryMapping(mappingInput)
  const source = createLdapAccountSource({
    ...settings,
    attributes: mapping.attributes,
    ...(mapping.groupEntries === undefined ? {} : { groupEntries: mapping.groupEntries }),
  })
  return syncDirectoryUsers(organisation, await source.listAccounts(), mappingInput, options)
}
