import { type DomainError, domainError, isDomainError } from '@mailroom/core'

/** S3 error names that mean the object is not there. */
const MISSING = new Set(['NoSuchKey', 'NotFound'])
/** S3 error names that mean the store answered but refuses: wrong keys, no right, no bucket. */
const REFUSED = new Set([
  'NoSuchBucket',
  'AccessDenied',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AllAccessDisabled',
  'InvalidBucketName',
  'Forbidden',
])

/**
 * The catalogue error of a failed object-store call: a missing object is `DOCUMENT_NOT_IN_DOCSERVER`
 * (404), a refusal `DOCUMENT_STORE_REFUSED`, anything else (connection refused or reset, timeouts, 5xx
 * after the client's retries) `DOCUMENT_STORE_UNREACHABLE`; both of the last answer 503. The client's own
 * error is kept as the cause, for the logs.
 */
export function storeError(error: unknown): DomainError {
  if (isDomainError(error)) return error
  const failure = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } } | null
  const name = failure?.Code ?? failure?.name ?? ''
  const status = failure?.$metadata?.httpStatusCode
  let mapped: DomainError
  if (MISSING.has(name) || (status === 404 && name !== 'NoSuchBucket'))
    mapped = domainError('DOCUMENT_NOT_IN_DOCSERVER')
  else if (REFUSED.has(name) || status === 403) mapped = domainError('DOCUMENT_STORE_REFUSED')
  else mapped = domainError('DOCUMENT_STORE_UNREACHABLE')
  Object.defineProperty(mapped, 'cause', { value: error, enumerable: false })
  return mapped
}

/** True when a failure says the object is missing (not the bucket). */
export function isMissing(error: unknown): boolean {
  return storeError(error).code === 'DOCUMENT_NOT_IN_DOCSERVER'
}
