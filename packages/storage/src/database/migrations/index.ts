import { type Kysely, type Migration, type MigrationResultSet, Migrator, sql } from 'kysely'
import * as initialSchema from './0001-initial-schema.js'
import * as baseData from './0002-base-data.js'
import * as records from './0003-records.js'
import * as journal from './0004-journal.js'
import * as journalPending from './0005-journal-pending.js'
import * as followedResources from './0006-followed-resources.js'
import * as referenceVersion from './0007-reference-version.js'
import * as organisation from './0008-organisation.js'
import * as journalVerifiedPoints from './0009-journal-verified-points.js'
import * as groupPrivileges from './0010-group-privileges.js'
import * as parameters from './0011-parameters.js'
import * as contacts from './0012-contacts.js'
import * as notes from './0013-notes.js'
import * as attachments from './0014-attachments.js'
import * as chronoSearchIndex from './0015-chrono-search-index.js'
import * as fulltext from './0016-fulltext.js'
import * as fulltextAttachments from './0017-fulltext-attachments.js'
import * as userAuthentication from './0018-user-authentication.js'
import * as fulltextRecordDocument from './0019-fulltext-record-document.js'
import * as importBatches from './0020-import-batches.js'
import * as maarchImportRuns from './0021-maarch-import-runs.js'
import * as fulltextPassages from './0022-fulltext-passages.js'
import * as fulltextPerimeterIndex from './0023-fulltext-perimeter-index.js'
import * as basketsAndActions from './0024-baskets-and-actions.js'
import * as basketPerimeterAccessVersion from './0025-basket-perimeter-access-version.js'
import * as basketPreferencesOfMembers from './0026-basket-preferences-of-members.js'
import * as listinstanceHistory from './0027-listinstance-history.js'
import * as recordsByAssignee from './0028-records-by-assignee.js'
import * as listTemplates from './0029-list-templates.js'
import * as basketIndexes from './0030-basket-indexes.js'

/** Every migration, in order. Static imports so bundling keeps them (no folder scanning at run time). */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-initial-schema': initialSchema,
  '0002-base-data': baseData,
  '0003-records': records,
  '0004-journal': journal,
  '0005-journal-pending': journalPending,
  '0006-followed-resources': followedResources,
  '0007-reference-version': referenceVersion,
  '0008-organisation': organisation,
  '0009-journal-verified-points': journalVerifiedPoints,
  '0010-group-privileges': groupPrivileges,
  '0011-parameters': parameters,
  '0012-contacts': contacts,
  '0013-notes': notes,
  '0014-attachments': attachments,
  '0015-chrono-search-index': chronoSearchIndex,
  '0016-fulltext': fulltext,
  '0017-fulltext-attachments': fulltextAttachments,
  '0018-user-authentication': userAuthentication,
  '0019-fulltext-record-document': fulltextRecordDocument,
  '0020-import-batches': importBatches,
  '0021-maarch-import-runs': maarchImportRuns,
  '0022-fulltext-passages': fulltextPassages,
  '0023-fulltext-perimeter-index': fulltextPerimeterIndex,
  '0024-baskets-and-actions': basketsAndActions,
  '0025-basket-perimeter-access-version': basketPerimeterAccessVersion,
  '0026-basket-preferences-of-members': basketPreferencesOfMembers,
  '0027-listinstance-history': listinstanceHistory,
  '0028-records-by-assignee': recordsByAssignee,
  '0029-list-templates': listTemplates,
  '0030-basket-indexes': basketIndexes,
}

/**
 * The migrator of Mailroom's tables, over `migrations` (every one by default; a test gives fewer to make the
 * database an older version left).
 */
function mailroomMigrator(db: Kysely<any>, migrations: Record<string, Migration> = MIGRATIONS): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Branches developed side by side take their numbers at once, so a database may have applied a later
    // migration before an earlier one landed; each migration adds its own tables and columns, so the order
    // between them does not matter, and they run in name order on a new database.
    allowUnorderedMigrations: true,
    migrationTableName: 'mailroom_migrations',
    migrationLockTableName: 'mailroom_migrations_lock',
  })
}

/**
 * Applies pending migrations; throws when one fails (kysely reports errors instead of throwing). They run on one
 * connection without the statement timeout that guards requests (15 s by default): a migration may rewrite a
 * whole table (0019 fills a column of every record, minutes at a million records), and a timeout there would
 * roll it back at every start, so the server could never start on a large database.
 */
export async function migrateToLatest(
  db: Kysely<any>,
  migrations: Record<string, Migration> = MIGRATIONS,
): Promise<MigrationResultSet> {
  const result = await db.connection().execute(async (connection) => {
    await sql`set statement_timeout = 0`.execute(connection)
    try {
      return await mailroomMigrator(connection, migrations).migrateToLatest()
    } finally {
      // Back to the connection's own setting before the pool lends it to a request.
      await sql`reset statement_timeout`.execute(connection)
    }
  })
  if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error))
  return result
}

/**
 * Names of the migrations this version knows that the database has not applied (all of them when it was
 * never migrated). Migrations applied by a newer version are not counted: during a rolling upgrade the
 * older servers keep serving a schema that only grew.
 */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const exists = await sql<{ found: string | null }>`select to_regclass('mailroom_migrations')::text as found`.execute(
    db,
  )
  if (!exists.rows[0]?.found) return Object.keys(MIGRATIONS)
  const applied = await sql<{ name: string }>`select name from mailroom_migrations`.execute(db)
  const done = new Set(applied.rows.map((row) => row.name))
  return Object.keys(MIGRATIONS).filter((name) => !done.has(name))
}
