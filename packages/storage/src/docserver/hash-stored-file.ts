import { isDomainError } from '@mailroom/core'
import type { DocumentStore } from './document-store.js'
import { digestStream } from './file-digest.js'

/** Hex SHA-256 of a stored file, streamed; null when it does not exist or is not a regular file; a store that cannot be reached throws (never taken for a missing file). */
export async function sha256OfStoredFile(store: DocumentStore, key: string): Promise<string | null> {
  const unlessUnreachable = (error: unknown): null => {
    if (isDomainError(error) && error.kind === 'unavailable') throw error
    return null
  }
  if ((await store.size(key).catch(unlessUnreachable)) === null) return null
  try {
    return (await digestStream(await store.read(key), 'sha256')).sha256
  } catch (error) {
    return unlessUnreachable(error)
  }
}
