import { availableParallelism } from 'node:os'
import type { Actor } from '@mailroom/core'
import type { Database, DocumentStore, OrganisationAdmin } from '@mailroom/storage'
import type { Kysely } from 'kysely'
import type { DocserverLocations } from './files.js'
import type { MaarchUserMapping } from './map-organisation.js'
import type { ImportReportSink, MaarchImportSummary } from './report.js'

/** The Mailroom installation receiving the import (a `createMailroom` result fits). */
export interface MaarchImportTarget {
  readonly db: Kysely<Database>
  /** Mailroom's document store; absent: the folder docserverDir. */
  readonly documentStore?: DocumentStore
  readonly organisation: OrganisationAdmin
  actor(user: string | number): Promise<Actor>
  journalFlush(): Promise<void>
}

export interface MaarchImportOptions {
  /** URL of the Maarch 20.10 PostgreSQL database (opened read-only). */
  readonly from: string
  readonly docservers: DocserverLocations
  /** Mailroom's document storage folder (MAILROOM_DOCSERVER_DIR): needed only when the target has no documentStore. */
  readonly docserverDir?: string
  readonly dryRun?: boolean
  /**
   * Login of the Mailroom user in whose name records whose Maarch typist is not imported (a user deleted in
   * Maarch) are recorded and deposited in the digital safe; `superadmin`, Maarch's root user, by default.
   */
  readonly fallbackDepositor?: string
  /**
   * How the imported users sign in: `ldap` or `oidc` for an installation whose login_method.xml enables ldap,
   * keycloak, cas, sso, openam or azure_saml (web-service and root users keep their Maarch password).
   */
  readonly authentication?: MaarchUserMapping['authentication']
  /**
   * Path of the installation's `apps/maarch_entreprise/xml/entreprise.xml` (its custom copy when it has one),
   * where 20.10 keeps its attachment types; without it, the types 20.10 installs (and those its attachments use).
   */
  readonly entrepriseXml?: string
  /** Only the organisation ('reference') or only the records ('records'); both by default. */
  readonly only?: 'reference' | 'records'
  /** Stops between two batches (those in flight finish); what is committed stays, the next run continues. */
  readonly signal?: AbortSignal
  /**
   * Records per batch: a batch's files are made durable together, then its rows committed in one
   * transaction, whole or not at all. DEFAULT_BATCH_SIZE by default.
   */
  readonly batchSize?: number
  /** Batches written at once, each its own transaction; defaultJobs() by default (two per core, at least 4). */
  readonly jobs?: number
  /** Called once before the records: their number, where the run resumes, what it cleaned up. */
  readonly onStart?: (start: ImportStart) => void
  /** Called after each batch is committed. */
  readonly onProgress?: (progress: ImportProgress) => void
  /** Receives the per-record report as the import goes (a `JsonReportFile`, a `ReportCollector`). */
  readonly report?: ImportReportSink
  /**
   * A delta run: only what changed in the source since then (a date and time, or `last`: the cut-off recorded
   * by the last finished run from this source); see delta/import-changes.ts.
   */
  readonly since?: Date | string
}

/** Where a run stands after a batch: records done (imported or skipped) of the source's total. */
export interface ImportProgress {
  readonly records: number
  readonly total: number
  /** Bytes of the originals imported. */
  readonly bytes: number
  /** Batches done so far in this run. */
  readonly batches?: number
}

/** How a run of the records starts. */
export interface ImportStart {
  /** Records in the source. */
  readonly total: number
  /** Where the batches committed by earlier runs end (null: nothing committed, the run starts at the beginning). */
  readonly resumed: MaarchImportSummary['resumed']
  /** Batches an earlier run stopped before committing, whose files were removed. */
  readonly cleaned: { readonly batches: number; readonly files: number }
  readonly batchSize: number
  readonly jobs: number
}

/** Maarch's root user: the default fallback depositor. */
export const DEFAULT_FALLBACK_DEPOSITOR = 'superadmin'
/** Records per batch by default: committed together, their files made durable together before. */
export const DEFAULT_BATCH_SIZE = 100

/**
 * Batches written at once by default: two per core, at least 4, at most 16. A batch mostly waits (its files'
 * fsyncs, its statements' round trips), so more batches than cores keep both the disk and the database busy.
 */
export function defaultJobs(): number {
  return Math.max(4, Math.min(16, availableParallelism() * 2))
}
