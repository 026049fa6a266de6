import { posix } from 'node:path'

/** A bucket and the prefix inside it under which Mailroom keeps its documents (`s3://bucket/prefix`). */
export interface S3Location {
  readonly bucket: string
  /** Empty, or ends with `/`. */
  readonly prefix: string
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

/** True when a docserver setting names object storage (`s3://…`) rather than a folder. */
export function isS3Url(url: string): boolean {
  return url.trim().toLowerCase().startsWith('s3://')
}

/** `s3://bucket[/prefix]` → its bucket and prefix; throws a readable Error on anything else. */
export function parseS3Url(url: string): S3Location {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/i.exec(url.trim())
  const bucket = match?.[1] ?? ''
  if (!match || !BUCKET.test(bucket))
    throw new Error(
      `"${url}" is not s3://BUCKET[/PREFIX] with a valid bucket name (3-63 lower-case letters, digits, dots, hyphens)`,
    )
  const rawPrefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '')
  const prefix = rawPrefix === '' ? '' : posix.normalize(rawPrefix)
  if (prefix.startsWith('..') || prefix.includes('/../')) throw new Error(`"${url}": the prefix may not contain ..`)
  return { bucket, prefix: prefix === '' || prefix === '.' ? '' : `${prefix}/` }
}

/**
 * The key of a stored file from its row's columns, as the folder store computes it (path relative to the
 * root, `#` read as `/`), so keys are the same in both stores. Null when a part is absolute or the result
 * would leave the store.
 */
export function documentKey(pathTemplate: string, path: string, filename: string): string | null {
  const parts = [pathTemplate, path.replaceAll('#', '/'), filename]
  if (parts.some((part) => part.startsWith('/') || part.includes('\0'))) return null
  const key = posix.normalize(posix.join(...parts)).replace(/\/+$/, '')
  if (key === '' || key === '.' || key === '..' || key.startsWith('../')) return null
  return key
}
