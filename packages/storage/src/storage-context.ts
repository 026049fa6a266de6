import type { ChronoMerger, Clock, IdGenerator, MimeTypeSniffer, PdfConverter, PdfWatermarker } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from './database/schema.js'
import type { DocumentStore } from './docserver/document-store.js'
import type { JournalWriter } from './journal/journal-writer.js'
import type { Logger } from './logger.js'
import type { PerimeterGuard } from './perimeter/perimeter-guard.js'

/**
 * What every storage-side wiring of a capability receives from createMailroom. Document processing comes in
 * through core's ports (sniffer, watermarker, converter, chrono merger): storage does not depend on it.
 */
export interface StorageContext {
  readonly db: Kysely<Database>
  readonly kind: 'postgres' | 'pglite'
  /** Where the documents are kept (a folder or an object store). */
  readonly docservers: DocumentStore
  readonly clock: Clock
  readonly ids: IdGenerator
  readonly logger: Logger
  /** Converts stored originals to PDF (null: conversion disabled). */
  readonly converter: PdfConverter | null
  /** Finds a file's MIME type from its bytes (creates, new versions, content reads). */
  readonly sniffer: MimeTypeSniffer
  /** Draws the watermark of content reads. */
  readonly watermarker: PdfWatermarker
  /** Merges the chrono into office files that carry its placeholder (creates). */
  readonly chronoMerger: ChronoMerger
  /** The record perimeter (search, per-record checks). */
  readonly perimeter: PerimeterGuard
  /** Appends digital-safe journal events inside the caller's transaction. */
  readonly journal: JournalWriter
}
