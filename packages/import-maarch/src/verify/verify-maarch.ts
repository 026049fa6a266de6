import type { Database, DocumentStore } from '@mailroom/storage'
import { type Kysely, sql } from 'kysely'
import type { DocserverLocations } from '../files.js'
import type { MaarchUserMapping } from '../map-organisation.js'
import { openMaarchSource } from '../source.js'
import { FileComparer } from './file-comparer.js'
import { Tally, type VerifyDifference, type VerifyKindCounts } from './tally.js'
import { verifyAttachments } from './verify-attachments.js'
import { verifyChronoCounters } from './verify-chrono-counters.js'
import { verifyOrganisation } from './verify-organisation.js'
import { verifyRecords } from './verify-records.js'

/** The Mailroom installation an import went into, read only (a `createMailroom` result fits). */
export interface MaarchVerifyTarget {
  readonly db: Kysely<Database>
  /** Where Mailroom keeps the files (read, never written). */
  readonly documentStore: DocumentStore
}

/** What `verifyMaarchImport` compares: the same source and docservers the import was given. */
export interface MaarchVerifyOptions {
  /** URL of the Maarch 20.10 PostgreSQL database (read in one read-only transaction). */
  readonly from: string
  readonly docservers: DocserverLocations
  /** The `--authentication` the import was given, so that users' methods are expected alike. */
  readonly authentication?: MaarchUserMapping['authentication']
  /** Receives each difference as it is found (the result keeps only the counts). */
  readonly onDifference?: (difference: VerifyDifference) => void
  /** Told after each range of records or attachments compared. */
  readonly onProgress?: (progress: VerifyProgress) => void
}

/** How far a verification is: the source's records and attachments compared, and the files' bytes read. */
export interface VerifyProgress {
  /** Records, then attachments, of the source compared so far, of `total` (the source's, deleted attachments left out). */
  readonly items: number
  readonly total: number
  /** Bytes of files read so far, both sides. */
  readonly bytes: number
}

/** What a verification found: the counts per kind, and whether both sides agree. */
export interface MaarchVerification {
  readonly sourceVersion: string
  /** True when no kind has a difference. */
  readonly ok: boolean
  readonly kinds: readonly VerifyKindCounts[]
  readonly differences: number
  /**
   * What is expected to differ and was verified as such: what the organisation's mapping changed on purpose
   * (the import's organisation notes), files found on neither side.
   */
  readonly notes: readonly string[]
}

/**
 * Compares a Maarch Courrier 20.10 installation with the Mailroom it was imported into, kind by kind (users,
 * groups, entities, contacts, records, files by fingerprint, attachments, notes, links, history rows, chrono
 * counters), reporting every difference. Changes neither side: the source is read in one read-only
 * transaction, the target in another, and the files are only read. See docs/migrating-from-maarch.md.
 */
export async function verifyMaarchImport(
  target: MaarchVerifyTarget,
  options: MaarchVerifyOptions,
): Promise<MaarchVerification> {
  const source = await openMaarchSource(options.from)
  try {
    const tally = new Tally(options.onDifference ?? (() => {}))
    const notes: string[] = []
    await target.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        // A long read of a large installation: no statement or idle limit of the pool cuts it short.
        await sql`set local statement_timeout = 0`.execute(trx)
        await sql`set local idle_in_transaction_session_timeout = 0`.execute(trx)
        notes.push(
          ...(await verifyOrganisation(source, trx, tally, {
            ...(options.authentication === undefined ? {} : { authentication: options.authentication }),
          })),
        )
        const files = await FileComparer.open(source, trx, options.docservers, target.documentStore, tally, notes)
        const [counted] = await source.rows<{ total: string }>(
          `select (select count(*) from res_letterbox)
            + (select count(*) from res_attachments where coalesce(status, '') <> 'DEL') as total`,
        )
        const total = Number(counted?.total ?? 0)
        let items = 0
        const advance = (compared: number) => {
          items += compared
          options.onProgress?.({ items, total, bytes: files.bytesRead })
        }
        await verifyRecords(source, trx, files, tally, advance)
        await verifyAttachments(source, trx, files, tally, advance)
        await verifyChronoCounters(source, trx, tally)
      })
    const kinds = tally.counts()
    const differences = kinds.reduce((sum, k) => sum + k.differences, 0)
    return { sourceVersion: source.version, ok: differences === 0, kinds, differences, notes }
  } finally {
    await source.close()
  }
}
