import type { Clock, IdGenerator, PdfConverter } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Logger } from './logger.js'
import type { Database } from './database/schema.js'
import type { DocserverRoot } from './docserver/docserver-root.js'
import type { PerimeterGuard } from './perimeter/perimeter-guard.js'
import type { JournalWriter } from './journal/journal-writer.js'

/** What every storage-side wiring of a capability receives from createMailroom. */
export interface StorageContext {
  readonly db: Kysely<Database>
  readonly kind: 'postgres' | 'pglite'
  readonly docservers: DocserverRoot
  readonly clock: Clock
  readonly ids: IdGenerator
  readonly logger: Logger
  /** Converts stored originals to PDF (null: conversion disabled). */
  readonly converter: PdfConverter | null
  /** The record perimeter (search, per-record checks). */
  readonly perimeter: PerimeterGuard
  /** Appends digital-safe journal events inside the caller's transaction. */
  readonly journal: JournalWriter
}
