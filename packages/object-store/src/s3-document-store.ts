import { createHash, randomBytes } from 'node:crypto'
import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import { PassThrough, Readable } from 'node:stream'
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { domainError } from '@mailroom/core'
import type { ByteRange, DocumentStore, ListedDocument, StoredDocument } from '@mailroom/storage'
import { NodeHttpHandler } from '@smithy/node-http-handler'
import { documentKey, parseS3Url, type S3Location } from './s3-location.js'
import { isMissing, storeError } from './store-errors.js'

/** How to reach an S3-compatible object store (AWS S3, Ceph RADOS Gateway, MinIO…). */
export interface S3StoreOptions {
  /** `s3://BUCKET[/PREFIX]`: where the documents go. */
  readonly url: string
  /** The service's address (`http://127.0.0.1:7480`); absent: AWS S3 of `region`. */
  readonly endpoint?: string
  /** Region the requests are signed for (any name for most non-AWS stores). Default `us-east-1`. */
  readonly region?: string
  /** Address buckets as `endpoint/bucket` rather than `bucket.endpoint` (most non-AWS stores need it). */
  readonly forcePathStyle?: boolean
  /** Access keys; absent: the SDK's default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  readonly credentials?: {
    readonly accessKeyId: string
    readonly secretAccessKey: string
    readonly sessionToken?: string
  }
  /** Longest wait for a connection, milliseconds (default 3000). */
  readonly connectTimeoutMs?: number
  /** Longest silence of a request's socket, milliseconds (default 30000), answers' bodies included: a hung store fails rather than hangs. */
  readonly requestTimeoutMs?: number
  /**
   * Longest wait for one call of the store, all its attempts included, milliseconds (default 20000); a read
   * waits that long for the answer's headers, its body then streams (bounded by requestTimeoutMs). Without
   * it, a hung store would hold a request for maxAttempts times the silence.
   */
  readonly callTimeoutMs?: number
  /** Attempts per call, with the SDK's exponential backoff between them (default 3). */
  readonly maxAttempts?: number
  /** Create the bucket at start-up when it is missing (default true). */
  readonly createBucket?: boolean
  /** Files larger than this go up in multipart parts of this size (default 8 MiB, the S3 minimum is 5 MiB). */
  readonly partSizeBytes?: number
  /** Parallel connections to the store (default 64). */
  readonly maxSockets?: number
}

const DEFAULT_PART_BYTES = 8 * 1024 * 1024
const MULTIPART_QUEUE = 4
const EXTENSION = /^[a-z0-9]{1,10}$/

/**
 * The document store in an S3 bucket. A file is one object, `<prefix><path_template>/<YYYY>/<MM>/<random>.<ext>`;
 * its key inside the prefix is the one the folder store uses, so rows move between stores unchanged.
 *
 * Guarantees: `write` resolves only once the store acknowledged the whole object (S3 acknowledges a PUT or a
 * multipart completion only once the object is durable), signed with its SHA-256 (signature v4 with
 * x-amz-content-sha256), so a damaged upload is refused by the store; a failed write removes what it may
 * have left (an aborted multipart upload leaves no object; anything else is removed, or found by fsck).
 * Reads stream; the caller hashes while streaming (content reads, fsck, journal checks).
 */
export class S3DocumentStore implements DocumentStore {
  readonly local = false
  readonly location: S3Location
  readonly client: S3Client
  readonly #options: S3StoreOptions
  readonly #partSize: number
  readonly #callTimeoutMs: number

  constructor(options: S3StoreOptions) {
    this.#options = options
    this.location = parseS3Url(options.url)
    this.#partSize = Math.max(5 * 1024 * 1024, options.partSizeBytes ?? DEFAULT_PART_BYTES)
    this.#callTimeoutMs = options.callTimeoutMs ?? 20_000
    const maxSockets = options.maxSockets ?? 64
    this.client = new S3Client({
      region: options.region || 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      maxAttempts: options.maxAttempts ?? 3,
      retryMode: 'standard',
      // Integrity is the payload's SHA-256 in the signature and Mailroom's own fingerprints on every read;
      // the extra CRC headers of newer SDKs are not understood by every S3-compatible store.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: new NodeHttpHandler({
        connectionTimeout: options.connectTimeoutMs ?? 3_000,
        // The handler's requestTimeout only logs a warning; socketTimeout is what fails a silent request.
        socketTimeout: options.requestTimeoutMs ?? 30_000,
        httpAgent: new HttpAgent({ keepAlive: true, maxSockets }),
        httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets }),
      }),
    })
  }

  get description(): string {
    return `s3://${this.location.bucket}/${this.location.prefix}`
  }

  async ensure(): Promise<void> {
    try {
      await this.#call((abortSignal) =>
        this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket }), { abortSignal }),
      )
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
      if (status !== 404 || this.#options.createBucket === false) throw storeError(error)
      try {
        await this.#call((abortSignal) =>
          this.client.send(new CreateBucketCommand({ Bucket: this.location.bucket }), { abortSignal }),
        )
      } catch (creation) {
        const name = (creation as { name?: string }).name
        if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw storeError(creation)
      }
    }
  }

  async isUsable(): Promise<boolean> {
    try {
      await this.#call((abortSignal) =>
        this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket }), { abortSignal }),
      )
      return true
    } catch {
      return false
    }
  }

  /** Writes and removes a small probe object: a bucket that answers HEAD may still refuse writes (a read-only key, a full quota). */
  async acceptsWrites(): Promise<boolean> {
    const Key = this.#objectKey(`.mailroom-write-probe-${process.pid}-${randomBytes(4).toString('hex')}`)
    const removal = () =>
      this.#call((abortSignal) =>
        this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key }), { abortSignal }),
      ).catch(() => {})
    try {
      await this.#call((abortSignal) =>
        this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key, Body: 'ok', ContentLength: 2 }), {
          abortSignal,
        }),
      )
      await removal()
      return true
    } catch {
      // A store that did not answer the probe would not answer its removal either: the answer does not wait for it.
      void removal()
      return false
    }
  }

  keyOf(pathTemplate: string, path: string, filename: string): string | null {
    return documentKey(pathTemplate, path, filename)
  }

  async write(pathTemplate: string, extension: string, bytes: Uint8Array, now: Date): Promise<StoredDocument> {
    const path = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/`
    const filename = `${randomBytes(16).toString('hex')}.${extension}`
    const key = EXTENSION.test(extension) ? documentKey(pathTemplate, path, filename) : null
    if (key === null) throw new Error('refused storage path')
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    try {
      if (bytes.length <= this.#partSize) {
        const put = new PutObjectCommand({
          Bucket: this.location.bucket,
          Key: this.#objectKey(key),
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: 'application/octet-stream',
        })
        // The signature covers the payload's SHA-256; given here, the signer takes it instead of hashing the
        // bytes a second time (the store still checks it against what it receives).
        put.middlewareStack.add(
          (next) => (args) => {
            const request = args.request as { headers?: Record<string, string> }
            if (request.headers) request.headers['x-amz-content-sha256'] = sha256
            return next(args)
          },
          { step: 'build', name: 'mailroomPayloadSha256' },
        )
        await this.#call((abortSignal) => this.client.send(put, { abortSignal }))
      } else {
        // One call's time for starting and completing the upload, and one per round of parts sent together.
        await this.#upload(
          key,
          bytes,
          this.#callTimeoutMs * (1 + Math.ceil(bytes.length / this.#partSize / MULTIPART_QUEUE)),
        )
      }
    } catch (error) {
      // A request cut after the store kept the object would leave it: remove it (fsck finds it otherwise).
      // A store that did not answer would not answer the removal either: the failure is not held up by it.
      const failure = storeError(error)
      const removal = this.remove(key).catch(() => {})
      if (failure.code !== 'DOCUMENT_STORE_UNREACHABLE') await removal
      throw failure
    }
    return { path, filename, size: bytes.length, sha256, key }
  }

  async put(key: string, body: Readable, size: number): Promise<void> {
    try {
      // A copy's file may be large and its link slow: no deadline in all, each request still fails when silent.
      await this.#upload(key, body)
      const stored = await this.size(key)
      if (stored !== size) throw new Error(`copy of ${key} stored ${stored} bytes, expected ${size}`)
    } catch (error) {
      await this.remove(key).catch(() => {})
      throw error instanceof Error && error.name === 'Error' ? error : storeError(error)
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await this.#call((abortSignal) =>
        this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.#objectKey(key) }), {
          abortSignal,
        }),
      )
    } catch (error) {
      if (!isMissing(error)) throw storeError(error)
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.#call((abortSignal) =>
        this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.#objectKey(key) }), {
          abortSignal,
        }),
      )
      return head.ContentLength ?? 0
    } catch (error) {
      if (isMissing(error)) return null
      throw storeError(error)
    }
  }

  async hasArea(): Promise<boolean> {
    return true
  }

  localPath(): string | null {
    return null
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    if (range && range.end < range.start) return Readable.from([])
    try {
      // The deadline ends with the headers: the body then streams for as long as it flows (requestTimeoutMs).
      const answer = await this.#call((abortSignal) =>
        this.client.send(
          new GetObjectCommand({
            Bucket: this.location.bucket,
            Key: this.#objectKey(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
          { abortSignal },
        ),
      )
      const body = answer.Body
      if (!(body instanceof Readable)) throw new Error('the S3 client gave no Node stream')
      // A connection lost in the middle of the body fails the stream with the catalogue's 503, as at its start.
      const out = new PassThrough({ highWaterMark: 256 * 1024 })
      body.on('error', (error) => out.destroy(storeError(error)))
      out.on('close', () => {
        if (!body.readableEnded) body.destroy()
      })
      return body.pipe(out)
    } catch (error) {
      // A range on an empty object: nothing to read.
      if ((error as { name?: string }).name === 'InvalidRange') return Readable.from([])
      throw storeError(error)
    }
  }

  async *list(): AsyncIterable<ListedDocument> {
    const { bucket, prefix } = this.location
    try {
      for await (const page of paginateListObjectsV2(
        { client: this.client, pageSize: 1000 },
        { Bucket: bucket, Prefix: prefix },
      )) {
        for (const object of page.Contents ?? []) {
          if (!object.Key) continue
          yield {
            key: object.Key.slice(prefix.length),
            size: object.Size ?? 0,
            modifiedMs: object.LastModified?.getTime() ?? 0,
          }
        }
      }
    } catch (error) {
      throw storeError(error)
    }
  }

  async close(): Promise<void> {
    this.client.destroy()
  }

  /** Multipart when larger than a part: parts go up a few at a time, an upload that fails is aborted. */
  async #upload(key: string, body: Uint8Array | Readable, deadlineMs?: number): Promise<void> {
    const send = async (abortController?: AbortController) => {
      const upload = new Upload({
        client: this.client,
        params: {
          Bucket: this.location.bucket,
          Key: this.#objectKey(key),
          Body: body,
          ContentType: 'application/octet-stream',
        },
        partSize: this.#partSize,
        queueSize: MULTIPART_QUEUE,
        leavePartsOnError: false,
        ...(abortController ? { abortController } : {}),
      })
      await upload.done()
    }
    if (deadlineMs === undefined) await send()
    else await this.#call((_, abortController) => send(abortController), deadlineMs)
  }

  /**
   * One call of the store under its deadline (callTimeoutMs): the SDK's retries of a silent store would
   * otherwise hold it for maxAttempts times requestTimeoutMs. Ends once `call` resolves (a read's headers).
   */
  async #call<T>(
    call: (abortSignal: AbortSignal, abortController: AbortController) => Promise<T>,
    timeoutMs = this.#callTimeoutMs,
  ): Promise<T> {
    const deadline = new AbortController()
    const timer = setTimeout(
      () => deadline.abort(new Error(`the object store did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    )
    try {
      return await call(deadline.signal, deadline)
    } finally {
      clearTimeout(timer)
    }
  }

  #objectKey(key: string): string {
    if (documentKey(key, '', '') !== key) throw domainError('DOCUMENT_NOT_IN_DOCSERVER')
    return `${this.location.prefix}${key}`
  }
}
