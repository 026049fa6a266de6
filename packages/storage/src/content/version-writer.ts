import type {
  Actor,
  ContentReadMeta,
  CurrentOriginal,
  HistoryRow,
  NewVersionRequest,
  NewVersionResult,
  VersionPlacement,
  VersionStore,
} from '@mailroom/core'
import { fail } from '@mailroom/core'
import { removeUnclaimedFile, rowsAfterFile } from '../docserver/file-then-rows.js'
import { firstWritableArea } from '../docserver/storage-areas.js'
import { historyRowValues } from '../history/history-rows.js'
import type { ContentReaderContext } from './content-context.js'
import { digestOf, fingerprintAlgorithm } from './stored-file.js'

/**
 * Core's port of new versions (`PUT /rest/resources/{resId}` with a file). A new original becomes version n+1:
 * the previous original stays where it is and gets an adr_letterbox row of type DOC for its version, the record
 * points at the new file (its PDF is converted on first read of `content`). A SIGN or NOTE PDF is attached to
 * the current version (replacing an earlier one of the same type). The file is written durably first, the rows
 * in one transaction with the record locked, so concurrent new versions are numbered one after the other; a
 * failed transaction removes the new file.
 */
export class VersionWriter implements VersionStore {
  readonly #context: ContentReaderContext
  constructor(context: ContentReaderContext) {
    this.#context = context
  }

  async recordExists(resId: number): Promise<boolean> {
    const { db } = this.#context
    const row = await db.selectFrom('res_letterbox').select('res_id').where('res_id', '=', resId).executeTakeFirst()
    return row !== undefined
  }

  async writeVersion(
    actor: Actor,
    resId: number,
    request: NewVersionRequest,
    place: (current: CurrentOriginal) => VersionPlacement,
    historyOf: (version: number) => HistoryRow,
    meta: ContentReadMeta,
  ): Promise<NewVersionResult> {
    const { db } = this.#context
    const areaType = request.kind === 'DOC' ? 'DOC' : 'CONVERT'
    const area = await firstWritableArea(db, areaType)
    if (!area) fail('STORAGE_UNAVAILABLE')
    const now = this.#context.clock.now()
    const stored = await this.#context.docservers.write(area.pathTemplate, request.format, request.bytes, now)
    const algorithm = fingerprintAlgorithm(area.fingerprintMode)
    const fingerprint = algorithm === 'sha256' ? stored.sha256 : digestOf(request.bytes, algorithm).fingerprint
    let replaced: string | null = null
    const files = { store: this.#context.docservers, logger: this.#context.logger }
    const result = await rowsAfterFile(
      files,
      () => stored,
      () =>
        db.transaction().execute(async (trx) => {
          const record = await trx
            .selectFrom('res_letterbox')
            .select(['res_id', 'version', 'docserver_id', 'path', 'filename', 'fingerprint', 'filesize', 'destination'])
            .where('res_id', '=', resId)
            .forUpdate()
            .executeTakeFirst()
          if (!record) fail('DOCUMENT_NOT_FOUND')
          const { version, keepPrevious } = place({
            version: record.version,
            hasFile: Boolean(record.filename),
            stored: Boolean(record.filename && record.docserver_id && record.path !== null),
          })
          if (request.kind === 'DOC') {
            if (keepPrevious && record.filename && record.docserver_id && record.path !== null) {
              await trx
                .insertInto('adr_letterbox')
                .values({
                  res_id: resId,
                  type: 'DOC',
                  version: record.version,
                  docserver_id: record.docserver_id,
                  path: record.path,
                  filename: record.filename,
                  fingerprint: record.fingerprint,
                  filesize: record.filesize,
                })
                .onConflict((oc) => oc.columns(['res_id', 'type', 'version']).doNothing())
                .execute()
            }
            await trx
              .updateTable('res_letterbox')
              .set({
                docserver_id: area.docserverId,
                path: stored.path,
                filename: stored.filename,
                fingerprint,
                filesize: stored.size,
                format: request.format,
                version,
                modification_date: now,
              })
              .where('res_id', '=', resId)
              .execute()
            await this.#context.journal?.deposit?.(trx, {
              resId,
              destination: record.destination,
              sha256: stored.sha256,
              size: stored.size,
              actor,
              kind: 'newResource',
            })
          } else {
            const previous = await trx
              .selectFrom('adr_letterbox as a')
              .innerJoin('docservers as d', 'd.docserver_id', 'a.docserver_id')
              .select(['a.path', 'a.filename', 'd.path_template'])
              .where('a.res_id', '=', resId)
              .where('a.type', '=', request.kind)
              .where('a.version', '=', version)
              .executeTakeFirst()
            if (previous)
              replaced = this.#context.docservers.keyOf(previous.path_template, previous.path, previous.filename)
            const values = {
              docserver_id: area.docserverId,
              path: stored.path,
              filename: stored.filename,
              fingerprint,
              filesize: stored.size,
            }
            await trx
              .insertInto('adr_letterbox')
              .values({ res_id: resId, type: request.kind, version, ...values })
              .onConflict((oc) => oc.columns(['res_id', 'type', 'version']).doUpdateSet(values))
              .execute()
            await trx.updateTable('res_letterbox').set({ modification_date: now }).where('res_id', '=', resId).execute()
          }
          const history = historyOf(version)
          await trx
            .insertInto('history')
            .values(historyRowValues(history, actor.id, meta.remoteIp, now))
            .execute()
          return { resId, version }
        }),
      'could not remove the file of a failed new version',
    )
    // The file the new one replaced is no longer named by any row.
    if (replaced)
      await removeUnclaimedFile(files, { key: replaced }, 'could not remove the replaced file: mailroom fsck will')
    return result
  }
}
