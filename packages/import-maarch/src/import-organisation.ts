import { readFile } from 'node:fs/promises'
import { userLogins } from '@mailroom/storage'
import { type MaarchAttachmentTypeSources, mapAttachmentTypes, parseEntrepriseXml } from './attachment-types.js'
import { readSourceBaskets, writeSourceBasketUsage } from './import-baskets.js'
import type { MaarchImportOptions, MaarchImportTarget } from './import-options.js'
import { type MaarchOrganisationRows, mapOrganisation } from './map-organisation.js'
import type { MaarchImportSummary } from './report.js'
import type { MaarchSource } from './source.js'

/** The queries reading the organisation from the source, by section (the verification reads it alike). */
export const ORG_QUERIES: Record<keyof MaarchOrganisationRows, string> = {
  entities: 'select * from entities order by id',
  usergroups: 'select * from usergroups order by id',
  usergroupsServices: 'select group_id, service_id from usergroups_services order by group_id, service_id',
  security: 'select * from security order by security_id',
  users: `select * from users where status <> 'DEL' order by id`,
  usersEntities: 'select * from users_entities',
  usergroupContent: 'select * from usergroup_content',
  status: 'select * from status order by identifier',
  doctypesFirstLevel: 'select * from doctypes_first_level order by doctypes_first_level_id',
  doctypesSecondLevel: 'select * from doctypes_second_level order by doctypes_second_level_id',
  doctypes: 'select * from doctypes order by type_id',
  indexingModels: 'select * from indexing_models order by id',
  indexingModelsFields: 'select * from indexing_models_fields order by id',
  priorities: 'select * from priorities order by "order", id',
  customFields: 'select * from custom_fields order by id',
  tags: 'select * from tags order by id',
  folders: 'select * from folders order by level, id',
  entitiesFolders: 'select * from entities_folders order by id',
  contacts: 'select * from contacts order by id',
  parameters: 'select * from parameters order by id',
  listTemplates: 'select * from list_templates order by id',
  listTemplatesItems: 'select * from list_templates_items order by list_template_id, sequence, id',
}

/**
 * The organisation read from the source, mapped (see map-organisation.ts) and applied to Mailroom through its
 * organisation admin, or only shown for a dry run.
 */
export async function importOrganisation(
  source: MaarchSource,
  target: MaarchImportTarget,
  options: MaarchImportOptions,
): Promise<NonNullable<MaarchImportSummary['organisation']>> {
  const dryRun = options.dryRun === true
  // One connection, one snapshot: the queries run one after the other.
  const read: Record<string, unknown> = {}
  for (const [section, query] of Object.entries(ORG_QUERIES)) read[section] = await source.rows(query)
  const rows = read as unknown as MaarchOrganisationRows
  const { document, notes } = mapOrganisation(rows, {
    ...(options.authentication === undefined ? {} : { authentication: options.authentication }),
  })
  document.attachmentTypes = mapAttachmentTypes(await attachmentTypeSources(source, options), notes)
  const baskets = await readSourceBaskets(source, rows)
  if (baskets !== null) {
    document.actions = baskets.actions
    document.baskets = baskets.baskets
    notes.push(...baskets.notes)
  }
  // A user already in Mailroom keeps the password hash it has there: a rerun must not put back the bcrypt
  // hash that the first login replaced, nor undo a password changed since.
  const present = new Set((await userLogins(target.db)).map((login) => login.toLowerCase()))
  document.users = document.users?.map(({ passwordHash, ...user }) =>
    present.has(user.login.toLowerCase()) ? user : { ...user, passwordHash },
  )
  // A basket clause the clause language cannot take is carried as it is and reported (baskets.unreadable).
  const result = await target.organisation.apply(document, {
    dryRun,
    author: { userId: null, name: 'import maarch' },
    acceptUnreadableClauses: true,
  })
  if (baskets === null) return { applied: result.applied, lines: result.lines, notes }
  const usage = dryRun ? null : await writeSourceBasketUsage(target, baskets, notes)
  return {
    applied: result.applied,
    lines: result.lines,
    notes,
    baskets: {
      unreadableClauses: baskets.unreadable,
      preferences: usage?.preferences ?? baskets.usage.preferences.length,
      loans: usage?.loans ?? baskets.usage.loans.length,
      markedAsRead: usage?.markedAsRead ?? baskets.usage.markedAsRead.length,
    },
  }
}

/** The installation's attachment types: its table (later releases), the entreprise.xml given, the types its attachments use. */
async function attachmentTypeSources(
  source: MaarchSource,
  options: MaarchImportOptions,
): Promise<MaarchAttachmentTypeSources> {
  const [present] = await source.rows<{ table: boolean }>(`select to_regclass('attachment_types') is not null as table`)
  const table = present?.table === true ? await source.rows('select * from attachment_types order by type_id') : null
  const configured =
    options.entrepriseXml === undefined ? null : parseEntrepriseXml(await readFile(options.entrepriseXml, 'utf8'))
  const used = await source.rows<{ attachment_type: string }>(
    'select distinct attachment_type from res_attachments where attachment_type is not null order by 1',
  )
  return { table, configured, used: used.map((row) => row.attachment_type) }
}
