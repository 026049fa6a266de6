import type { Logger } from '../logger.js'
import type { DocumentStore, StoredDocument } from './document-store.js'

/** Where a file written before its rows lies, and who hears of a removal that failed. */
export interface WrittenFiles {
  readonly store: DocumentStore
  readonly logger: Logger
}

/**
 * Removes a file whose rows were never written (they failed, or the write was refused). A removal that fails
 * is logged with the file's key and the message, never thrown over the error that caused it: the file is an
 * orphan that `mailroom fsck` removes.
 */
export async function removeUnclaimedFile(
  files: WrittenFiles,
  file: Pick<StoredDocument, 'key'>,
  message: string,
): Promise<void> {
  await files.store.remove(file.key).catch((removal: unknown) => {
    files.logger.error({ err: removal, file: file.key }, message)
  })
}

/**
 * Writes the rows of a file already written (acknowledged means durable: the file first, then the rows): when
 * they fail, the file is removed (removeUnclaimedFile) and the rows' error thrown, so a failure leaves
 * neither row nor file. `written` is asked after the failure, for rows that write their file themselves
 * (a file that needs the transaction's chrono); null when no file was written.
 */
export async function rowsAfterFile<T>(
  files: WrittenFiles,
  written: () => StoredDocument | null,
  rows: () => Promise<T>,
  message: string,
): Promise<T> {
  try {
    return await rows()
  } catch (error) {
    const file = written()
    if (file) await removeUnclaimedFile(files, file, message)
    throw error
  }
}
