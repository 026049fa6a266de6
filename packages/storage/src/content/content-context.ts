import type { Actor } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import type { StorageContext } from '../storage-context.js'
import type { ReadAuditJournal } from './read-audit.js'

/** The digital-safe journal calls a content read makes (the journal storage's JournalWriter satisfies it). */
export interface ContentJournal extends ReadAuditJournal {
  integrityCheck(
    trx: Kysely<Database>,
    request: { resId: number; sha256: string; size: number; actor: Actor; ok: boolean; info: string },
  ): Promise<void>
  /** A new version's file entering the safe (kind `newResource`). */
  deposit?(
    trx: Kysely<Database>,
    request: {
      resId: number
      destination: string | null
      sha256: string
      size: number
      actor: Actor
      kind: 'deposit' | 'newResource'
    },
  ): Promise<void>
}

/** What the reader needs from the storage context; any journal with the two calls will do (tests pass a fake). */
export type ContentReaderContext = Omit<StorageContext, 'journal'> & { readonly journal?: ContentJournal }
