import { type Actor, isRoot } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import type { HistoryRow } from '../history/history-row.js'
import type { RecordPerimeter } from '../perimeter/ports.js'
import { parseContentResId } from './content-request.js'
import type { ContentReadMeta, NewVersionResult } from './content-services.js'
import { checkFormatAllowed } from './formats.js'
import { type NewVersionKind, type NewVersionRequest, parseNewVersionBody } from './new-version-request.js'
import type { MimeTypeSniffer } from './ports.js'

/** The record's current original, read with the record locked. */
export interface CurrentOriginal {
  /** res_letterbox.version */
  readonly version: number
  /** The record names a file (filename). */
  readonly hasFile: boolean
  /** The record's file is stored where it can be kept as a version (filename, storage area and path). */
  readonly stored: boolean
}

/** Where a new file goes: the version it belongs to, and whether the current original is kept as version n. */
export interface VersionPlacement {
  readonly version: number
  readonly keepPrevious: boolean
}

/** Storage side of new versions. */
export interface VersionStore {
  /** True when a record has this res_id. */
  recordExists(resId: number): Promise<boolean>
  /**
   * Writes the file durably in the storage area of its kind, then in one transaction with the record locked:
   * asks `place` where it goes given the current original (`place` refuses by throwing), keeps the previous
   * original as a DOC version when told, points the record at a new original (with its journal deposit) or
   * attaches the SIGN / NOTE PDF to the version (replacing an earlier one of that type), and writes the history
   * row `historyOf` words for the version. A failure removes the new file.
   */
  writeVersion(
    actor: Actor,
    resId: number,
    request: NewVersionRequest,
    place: (current: CurrentOriginal) => VersionPlacement,
    historyOf: (version: number) => HistoryRow,
    meta: ContentReadMeta,
  ): Promise<NewVersionResult>
}

/** What a new version needs from the outside. */
export interface NewVersionDependencies {
  readonly versions: VersionStore
  readonly sniffer: MimeTypeSniffer
  readonly perimeter: RecordPerimeter
}

/**
 * `PUT /rest/resources/{resId}` with a file: the id, the body, the file's type against its format, the
 * perimeter (root users see every record), the record, then the version rule with the record locked.
 */
export async function createNewVersion(
  deps: NewVersionDependencies,
  actor: Actor,
  resIdText: string | undefined,
  body: unknown,
  meta: ContentReadMeta = {},
): Promise<NewVersionResult> {
  const resId = parseContentResId(resIdText)
  const request = parseNewVersionBody(body)
  checkFormatAllowed(request.format, await deps.sniffer.sniff(request.bytes, request.format))
  if (!isRoot(actor) && !(await deps.perimeter.allows(actor, resId))) fail('OUT_OF_PERIMETER')
  if (!(await deps.versions.recordExists(resId))) fail('DOCUMENT_NOT_FOUND')
  return deps.versions.writeVersion(
    actor,
    resId,
    request,
    (current) => placeVersion(request.kind, current),
    (version) => newVersionHistory(resId, request.kind, version),
    meta,
  )
}

/**
 * The version rule. A new original (DOC) becomes version n+1 and the current one is kept as version n, unless
 * the record has no stored file (then the new file is version n). A SIGN or NOTE PDF belongs to the current
 * version, which must have a file.
 */
export function placeVersion(kind: NewVersionKind, current: CurrentOriginal): VersionPlacement {
  if (kind === 'DOC') {
    return current.stored
      ? { version: current.version + 1, keepPrevious: true }
      : { version: current.version, keepPrevious: false }
  }
  if (!current.hasFile) fail('DOCUMENT_HAS_NO_FILE')
  return { version: current.version, keepPrevious: false }
}

/** The history row of a new version (`resup`) or of a signed / annotated file (`resupfile`), as 20.10 words them. */
export function newVersionHistory(resId: number, kind: NewVersionKind, version: number): HistoryRow {
  return {
    tableName: 'res_letterbox',
    recordId: resId,
    eventType: 'UP',
    eventId: kind === 'DOC' ? 'resup' : 'resupfile',
    module: 'resource',
    info:
      kind === 'DOC'
        ? `New version of document : ${resId} (version ${version})`
        : `${kind} file of document : ${resId} (version ${version})`,
  }
}
