import type { UnreadableClause } from './map-baskets.js'
import type { OrganisationNote } from './map-organisation.js'

/** What a delta run (`--since`) looked at and carried onto the records imported before. */
export interface DeltaSummary {
  /** The cut-off it carried changes from (ISO). */
  readonly since: string
  /** Source records created or changed since (by their dates, their history, notes, attachments, lists). */
  readonly examined: number
  /** Records imported before that it changed. */
  readonly updated: number
  /** Records imported before that it looked at and found as they were. */
  readonly unchanged: number
  /** What it carried, by kind. */
  readonly carried: DeltaCounts
}

/** What a delta carried, by kind. */
export interface DeltaCounts {
  /** Records whose own columns (status, subject, dates…) changed. */
  fields: number
  /** New originals, stored beside the old one as a new version and deposited. */
  files: number
  /** Converted versions (adr_letterbox) added. */
  versions: number
  /** Diffusion lists, senders and recipients, tags or folders replaced. */
  lists: number
  attachmentsAdded: number
  attachmentsChanged: number
  notes: number
  history: number
}

/** One imported record's details. */
export interface RecordReport {
  readonly resId: number
  readonly chrono: string | null
  readonly file?: {
    readonly source: string
    readonly size: number
    readonly fingerprint: 'matched' | 'computed' | 'mismatch'
    readonly mode: string
    readonly computed: string
  }
  readonly versions?: readonly { readonly type: string; readonly version: number }[]
  /** The record's attachments carried over; a file missing or not matching its fingerprint flags the record. */
  readonly attachments?: readonly {
    readonly resId: number
    readonly fingerprint: 'matched' | 'computed' | 'mismatch' | 'missing'
  }[]
  /** The typist was not imported (a user deleted in Maarch): the record was made and deposited in this user's name. */
  readonly depositor?: { readonly typist: number; readonly login: string }
  readonly problems?: readonly string[]
}

/**
 * One record's outcome as the report lists it. `repaired` and `flagged` records are imported too: repaired
 * when something was fixed on the way (a fingerprint computed, a converted PDF missing, the typist replaced by the fallback depositor),
 * flagged for an operator (a fingerprint mismatch, the original missing).
 */
export type RecordEntry =
  | ({ readonly outcome: 'imported' | 'repaired' | 'flagged' } & RecordReport)
  | { readonly outcome: 'skipped'; readonly resId: number; readonly reason: string }
  | UpdatedRecordEntry

/** A record imported before whose changes in the source a delta run carried over (`--since`). */
export interface UpdatedRecordEntry {
  readonly outcome: 'updated'
  readonly resId: number
  readonly chrono: string | null
  /** What changed: `status`, `file (version 2)`, `attachments +1`, `history +2`… */
  readonly changes: readonly string[]
  /** What the delta saw but did not carry (a note edited or deleted in the source), or repaired on the way. */
  readonly problems?: readonly string[]
}

/** A Maarch attachment (`res_attachments`) not imported: its master record was not (skipped or refused). */
export interface AttachmentEntry {
  readonly resId: number
  readonly resIdMaster: number | null
  readonly title: string | null
}

/** What is known of a run before its records: written first. */
export interface ReportHeader {
  readonly sourceVersion: string
  readonly dryRun: boolean
  readonly organisation: {
    readonly applied: boolean
    readonly lines: readonly string[]
    readonly notes: readonly OrganisationNote[]
    /** The source's baskets (absent when it has none of 20.10's basket tables). */
    readonly baskets?: BasketsReport
  } | null
}

/** What became of the source's baskets beyond the organisation's lines. */
export interface BasketsReport {
  /** Clauses carried as they are that the clause language cannot take yet, with who misses what they select. */
  readonly unreadableClauses: readonly UnreadableClause[]
  /** Users' basket preferences, lent baskets and marks as read written (to write, for a dry run). */
  readonly preferences: number
  readonly loans: number
  readonly markedAsRead: number
}

export interface ImportCounts {
  /** Every record imported, the repaired and flagged ones included. */
  readonly imported: number
  readonly repaired: number
  readonly flagged: number
  readonly skipped: number
  readonly attachmentsNotImported: number
}

/** What `importMaarch` returns: the header, the counts and what is known at the end, no per-record list. */
export interface MaarchImportSummary extends ReportHeader {
  readonly interrupted: boolean
  /**
   * Where the run resumed: the batches earlier runs committed, without a gap from the first record, end
   * after res_id `afterResId` (their records are reported skipped, already imported). Null: from the start.
   */
  readonly resumed: { readonly afterResId: number; readonly batches: number; readonly records: number } | null
  readonly counts: ImportCounts
  readonly chronoCounters: readonly { readonly counter: string; readonly value: number }[]
  readonly bytes: number
  /** The source's cut-off this run read up to (ISO): where `--since last` starts the next delta. */
  readonly cutoff?: string
  /** A delta run (`--since`): where it started and what it carried onto records imported before. */
  readonly delta?: DeltaSummary
}

/**
 * Where the per-record report goes while the import runs: a page of records at a time, in res_id order, so
 * the importer keeps nothing per record (memory stays flat whatever the installation's size).
 */
export interface ImportReportSink {
  begin(header: ReportHeader): Promise<void>
  records(entries: readonly RecordEntry[]): Promise<void>
  attachments(entries: readonly AttachmentEntry[]): Promise<void>
}

/** The whole report held in memory (tests, embedding code importing small installations). */
export interface MaarchImportReport extends MaarchImportSummary {
  readonly records: {
    readonly imported: readonly RecordReport[]
    readonly skipped: readonly { readonly resId: number; readonly reason: string }[]
    readonly repaired: readonly RecordReport[]
    readonly flagged: readonly RecordReport[]
    /** Records imported before that a delta run changed. */
    readonly updated: readonly UpdatedRecordEntry[]
  }
  readonly notImported: { readonly attachments: readonly AttachmentEntry[] }
}

/** A sink keeping every entry in memory (about 1.3 KB per record); `report` joins them to the summary. */
export class ReportCollector implements ImportReportSink {
  readonly #imported: RecordReport[] = []
  readonly #skipped: { resId: number; reason: string }[] = []
  readonly #repaired: RecordReport[] = []
  readonly #flagged: RecordReport[] = []
  readonly #updated: UpdatedRecordEntry[] = []
  readonly #attachments: AttachmentEntry[] = []

  async begin(): Promise<void> {}

  async records(entries: readonly RecordEntry[]): Promise<void> {
    for (const entry of entries) {
      if (entry.outcome === 'skipped') {
        this.#skipped.push({ resId: entry.resId, reason: entry.reason })
        continue
      }
      if (entry.outcome === 'updated') {
        this.#updated.push(entry)
        continue
      }
      const { outcome, ...record } = entry
      this.#imported.push(record)
      if (outcome === 'repaired') this.#repaired.push(record)
      if (outcome === 'flagged') this.#flagged.push(record)
    }
  }

  async attachments(entries: readonly AttachmentEntry[]): Promise<void> {
    this.#attachments.push(...entries)
  }

  report(summary: MaarchImportSummary): MaarchImportReport {
    return {
      ...summary,
      records: {
        imported: this.#imported,
        skipped: this.#skipped,
        repaired: this.#repaired,
        flagged: this.#flagged,
        updated: this.#updated,
      },
      notImported: { attachments: this.#attachments },
    }
  }
}
