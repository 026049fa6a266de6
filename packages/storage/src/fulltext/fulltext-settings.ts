import type { FullTextLanguage, TextExtractor } from '@mailroom/core'

/** How a server takes part in the full-text queue (docs/settings.md, MAILROOM_FULLTEXT_*). */
export interface FullTextSettings {
  /** The installation's language: OCR data and the text search configuration (fr or en). */
  readonly language: FullTextLanguage
  /** Files this server extracts at once; 0: it extracts none (other servers on the database do). */
  readonly workers: number
  /** How long a claimed file is held before another server may take it over (its server died), in ms. */
  readonly leaseMs: number
  /** Tries of one file before it is marked failed (a server that died holding it counts as one). */
  readonly maxAttempts: number
  /** How often an idle worker looks for new files, in ms (a create on this server wakes it at once). */
  readonly pollMs: number
  /** The first retry waits this long, in ms, then twice as long each time. */
  readonly retryDelayMs: number
}

/** French, one worker, a 5-minute lease, 3 tries, a look every 2 s, the first retry after 30 s. */
export const DEFAULT_FULLTEXT_SETTINGS: FullTextSettings = {
  language: 'fr',
  workers: 1,
  leaseMs: 5 * 60_000,
  maxAttempts: 3,
  pollMs: 2000,
  retryDelayMs: 30_000,
}

/** What the queue needs besides the storage context. */
export interface FullTextDependencies {
  readonly extractor: TextExtractor
  /** Names this server in the queue's rows (leased_by), for operators. */
  readonly serverName: string
}
