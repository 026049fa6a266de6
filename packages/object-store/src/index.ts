/**
 * @module @mailroom/object-store
 * Mailroom's document storage in S3-compatible object storage (AWS S3, Ceph RADOS Gateway, MinIO…): a
 * second implementation of storage's DocumentStore port, so several servers on one database share one
 * bucket. Carries the AWS SDK, which `@mailroom/storage` does not.
 */

export type { S3StoreOptions } from './s3-document-store.js'
export { S3DocumentStore } from './s3-document-store.js'
export type { S3Location } from './s3-location.js'
export { isS3Url, parseS3Url } from './s3-location.js'
