import type { Actor } from '../actors/actor.js'
import type { DispositionType } from './content-filename.js'

/** Facts about the request that the history records beside the actor. */
export interface ContentReadMeta {
  /** The caller's address (history.remote_ip). */
  readonly remoteIp?: string
}

/** Query parameters of `GET /rest/resources/{resId}/content`, as received. */
export interface ContentQuery {
  readonly mode?: string
  readonly watermark?: string
}

/** Query parameters of `GET /rest/resources/{resId}/originalContent`, as received. */
export interface OriginalContentQuery {
  readonly mode?: string
  readonly signedVersion?: string
}

/** Query parameters of `GET /rest/resources/{resId}/content/{version}`, as received. */
export interface VersionContentQuery {
  readonly type?: string
}

/** `content?mode=base64` (interface "File content results"). */
export interface ContentBase64Body {
  readonly encodedDocument: string
  /** Extension of the original file (res_letterbox.format). */
  readonly originalFormat: string
  /** Subject + `.` + original format (the reference's quirk, although the content is the PDF). */
  readonly filename: string
  readonly mimeType: string
  /** The typist. */
  readonly originalCreatorId: number
  /** Only when the served PDF is the signed version. */
  readonly signatoryId?: number
}

/** `originalContent?mode=base64`. */
export interface OriginalContentBase64Body {
  readonly encodedDocument: string
  readonly extension: string
  readonly filename: string
  readonly mimeType: string
}

/** `content/{version}`: always JSON. */
export interface VersionContentBody {
  readonly encodedDocument: string
  /** `<subject>_V<version>.<ext>`. */
  readonly filename: string
}

/**
 * A file to send as the response body. `body` is either the bytes (small, verified or watermarked files) or
 * a stream of chunks read from disk: a stream whose fingerprint turns out wrong at its end fails instead of
 * yielding its last chunk, so the adapter must abort the response (the client sees a truncated transfer).
 */
export interface ServedFile {
  readonly mimeType: string
  readonly filename: string
  readonly disposition: DispositionType
  /** Exact byte length of `body` (Content-Length). */
  readonly size: number
  readonly body: Uint8Array | AsyncIterable<Uint8Array>
}

/** What a content read answers: a JSON body or a file. */
export type ContentResult<J> =
  | { readonly kind: 'json'; readonly body: J }
  | { readonly kind: 'file'; readonly file: ServedFile }

/** Answer of a version creation: the record and its version number after the change. */
export interface NewVersionResult {
  readonly resId: number
  readonly version: number
}

/** Use cases of the content capability, as adapters call them. Path and query values are passed as received. */
export interface ContentServices {
  /**
   * `GET /rest/resources/{resId}/content`: the record's PDF (the signed one when it exists, else the
   * conversion of its original, made on first read), watermarked unless `watermark=false`.
   */
  readContent(
    actor: Actor,
    resId: string | undefined,
    query: ContentQuery,
    meta?: ContentReadMeta,
  ): Promise<ContentResult<ContentBase64Body>>
  /** `GET /rest/resources/{resId}/originalContent`: the stored original (or its signed PDF with `signedVersion=true`), never watermarked. */
  readOriginalContent(
    actor: Actor,
    resId: string | undefined,
    query: OriginalContentQuery,
    meta?: ContentReadMeta,
  ): Promise<ContentResult<OriginalContentBase64Body>>
  /** `GET /rest/resources/{resId}/content/{version}`: the PDF, signed or annotated file of a version, watermarked. */
  readVersionContent(
    actor: Actor,
    resId: string | undefined,
    version: string | undefined,
    query: VersionContentQuery,
    meta?: ContentReadMeta,
  ): Promise<VersionContentBody>
  /**
   * `PUT /rest/resources/{resId}` with `{ encodedFile, format }`: stores the file as version n+1 (the previous
   * original kept as adr type DOC; its PDF is converted on first read), or with `type` SIGN / NOTE attaches a
   * PDF to the current version. Perimeter and file checks as on create.
   */
  createVersion(
    actor: Actor,
    resId: string | undefined,
    body: unknown,
    meta?: ContentReadMeta,
  ): Promise<NewVersionResult>
}
