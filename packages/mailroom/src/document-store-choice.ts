import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isS3Url, S3DocumentStore, type S3StoreOptions } from '@mailroom/object-store'
import { type DocumentStore, FolderDocumentStore } from '@mailroom/storage'

/** Where createMailroom keeps documents (MailroomOptions): a folder, a bucket, or a store built by the caller. */
export interface DocumentStoreChoice {
  /** A ready store (the caller closes it). */
  readonly documentStore?: DocumentStore
  /** `s3://BUCKET[/PREFIX]`, `file:///path` or a plain path; wins over docserverDir. */
  readonly docserverUrl?: string
  /** Root folder of the document storage (when no docserverUrl is given). */
  readonly docserverDir?: string
  /** How to reach the object store of an `s3://` docserverUrl. */
  readonly s3?: Omit<S3StoreOptions, 'url'>
}

/** The store a choice names, and whether Mailroom owns it (closes it on close). */
export function documentStoreFor(choice: DocumentStoreChoice): { store: DocumentStore; owned: boolean } {
  if (choice.documentStore) return { store: choice.documentStore, owned: false }
  const url = choice.docserverUrl?.trim()
  if (url && isS3Url(url)) return { store: new S3DocumentStore({ ...choice.s3, url }), owned: true }
  const folder = url ? folderOf(url) : choice.docserverDir
  if (!folder) throw new Error('createMailroom needs docserverDir, docserverUrl or documentStore')
  return { store: new FolderDocumentStore(folder), owned: true }
}

/** The folder of a `file://` URL or a plain path. */
function folderOf(url: string): string {
  if (url.toLowerCase().startsWith('file://')) return fileURLToPath(url)
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url))
    throw new Error(`docserver URL "${url}" is neither s3://BUCKET[/PREFIX], file:// nor a path`)
  return isAbsolute(url) ? url : resolve(url)
}
