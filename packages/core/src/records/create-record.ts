import type { Actor } from '../actors/actor.js'
import type { Clock } from '../auth/ports.js'
import { isFormatAllowed, normaliseFormat } from '../content/formats.js'
import type { MimeTypeSniffer } from '../content/ports.js'
import { DomainError, errorMessage, fail, isDomainError } from '../errors/domain-error.js'
import { isMissing, isPlainObject } from './body-values.js'
import { checkCreateBody, type InspectedFile } from './check-create-body.js'
import { collectReferences } from './collect-references.js'
import { decodeBase64 } from './decode-base64.js'
import { earlierReferences, isEarlierVariant, translateEarlierBody } from './earlier-variant.js'
import { forceDisabledFields } from './force-disabled-fields.js'
import type { RecordsRepository, StagedFile } from './ports.js'

/** What record creation needs from the outside. */
export interface CreateRecordDependencies {
  readonly records: RecordsRepository
  readonly sniffer: MimeTypeSniffer
  readonly clock: Clock
}

/**
 * POST /rest/resources, both forms. Order: the right to index (403 `Service forbidden`), the required
 * parameters (400 `Data is not set or empty`), the earlier form's translation, the indexing model's
 * disabled fields (current form only), then the reference's checks and the atomic store. Any failure that
 * is not an expected one becomes a 500 whose message starts with `[ResController create]` and says nothing
 * of its cause (which stays in the error's `cause` for the log).
 */
export async function createRecord(
  deps: CreateRecordDependencies,
  actor: Actor,
  input: unknown,
): Promise<{ resId: number }> {
  if (!actor.groups.some((g) => g.canIndex)) fail('SERVICE_FORBIDDEN')
  if (input !== undefined && input !== null && !isPlainObject(input)) fail('UNSUPPORTED_BODY')
  let body: Readonly<Record<string, unknown>> = input ?? {}
  if (Object.keys(body).length === 0) fail('CREATE_DATA_EMPTY')

  // One instant for the whole create, so that `_TODAY` and the date checks agree around midnight.
  const now = deps.clock.now()
  // The file is written while the references are looked up (StagedFile); until it is handed to the store,
  // a refusal discards it.
  let staging: Promise<StagedFile | null> = NOTHING_STAGED
  let unreachable: DomainError | null = null
  try {
    const { record, facts } = await unexpectedAs('controlResource', async () => {
      const earlier = isEarlierVariant(body)
      if (earlier) {
        body = translateEarlierBody(body, await deps.records.lookupEarlierReferences(earlierReferences(body)))
      }
      if (isMissing(body.modelId) || isMissing(body.status)) fail('CREATE_DATA_EMPTY')
      const inspecting = inspectFile(deps.sniffer, body)
      staging = stageFile(deps.records, inspecting, (error) => {
        unreachable = error
      })
      let [facts, file] = await Promise.all([
        deps.records.lookupReferences(actor, collectReferences(actor, body)),
        inspecting,
      ])
      // Reference step 2: the model's disabled fields overwrite the body before any check. They come with the
      // model in the one lookup; only a model that has some costs a second lookup, of the forced body. The
      // earlier form predates indexing-model fields (its model comes from the category alone, and its clients
      // could never see which fields a model locks), so nothing is forced on it. A forced file is not the
      // staged one, which is then discarded below.
      const disabled = earlier ? [] : (facts.model?.disabledFields ?? [])
      if (disabled.length > 0) {
        const sent = body
        body = forceDisabledFields(body, disabled, { today: now, primaryEntityId: flaggedPrimaryEntityId(actor) })
        const fileForced = body.encodedFile !== sent.encodedFile || body.format !== sent.format
        ;[facts, file] = await Promise.all([
          deps.records.lookupReferences(actor, collectReferences(actor, body)),
          fileForced ? inspectFile(deps.sniffer, body) : Promise.resolve(file),
        ])
      }
      return { record: checkCreateBody({ actor, body, facts, file, now }), facts }
    })
    const staged = await staging
    // Writing again would wait on the same store as long again: a create answers within one store deadline.
    if (unreachable !== null) throw unreachable
    const stagedFile =
      staged !== null && staged.file.bytes === record.file?.bytes && staged.file.format === record.file.format
        ? staged
        : null
    if (staged !== null && stagedFile === null) await staged.discard()
    // From here the store owns the staged file: it keeps it with the rows or removes it.
    staging = NOTHING_STAGED
    const preparation = {
      resId: facts.reservedResourceId,
      entityTree: facts.entityTree.length > 0 ? facts.entityTree : null,
      stagedFile,
    }
    const resId = await unexpectedAs('storeResource', () => deps.records.create(actor, record, preparation))
    return { resId }
  } catch (error) {
    await (await staging)?.discard()
    throw error
  }
}

const NOTHING_STAGED: Promise<StagedFile | null> = Promise.resolve(null)

/**
 * Writes the file ahead of the checks once it is decoded and of an allowed format (what the checks will
 * find). Never rejects: a file that could not be staged is written, and its failure reported, by `create`;
 * but a store that cannot be reached is reported to `onUnreachable`, for the create to answer once checked.
 */
async function stageFile(
  records: RecordsRepository,
  inspecting: Promise<InspectedFile | null>,
  onUnreachable: (error: DomainError) => void,
): Promise<StagedFile | null> {
  if (records.stageFile === undefined) return null
  const file = await inspecting.catch(() => null)
  if (file === null || typeof file.format !== 'string' || file.bytes === null || file.mimeType === null) return null
  if (!isFormatAllowed(file.format, file.mimeType)) return null
  return records.stageFile({ format: normaliseFormat(file.format), bytes: file.bytes }).catch((error: unknown) => {
    if (isDomainError(error) && error.code === 'DOCUMENT_STORE_UNREACHABLE') onUnreachable(error)
    return null
  })
}

/** The entity flagged primary (users_entities.primary_entity = 'Y'); unlike primaryEntityOf, no fallback: the reference finds none. */
function flaggedPrimaryEntityId(actor: Actor): number | null {
  return actor.entities.find((e) => e.primary)?.id ?? null
}

/** Decodes and sniffs `encodedFile` when there is one (an empty value means "no file"). */
async function inspectFile(
  sniffer: MimeTypeSniffer,
  body: Readonly<Record<string, unknown>>,
): Promise<InspectedFile | null> {
  const encoded = body.encodedFile
  if (encoded === undefined || encoded === null || encoded === '') return null
  const bytes = typeof encoded === 'string' ? decodeBase64(encoded) : null
  const format = body.format
  const mimeType = bytes === null ? null : await sniffer.sniff(bytes, typeof format === 'string' ? format : undefined)
  return { format, bytes, mimeType }
}

/** File-system errors that mean the document storage cannot take the file (full, read-only, no rights). */
const STORAGE_FULL_OR_READ_ONLY = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM'])

async function unexpectedAs<T>(stage: 'controlResource' | 'storeResource', work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (isDomainError(error)) throw error
    const code = (error as { code?: unknown } | null)?.code
    if (stage === 'storeResource' && typeof code === 'string' && STORAGE_FULL_OR_READ_ONLY.has(code)) {
      throw new DomainError('STORAGE_NOT_WRITABLE', errorMessage('STORAGE_NOT_WRITABLE'), 'internal', { cause: error })
    }
    throw new DomainError('CREATE_FAILED', errorMessage('CREATE_FAILED', { stage }), 'internal', { cause: error })
  }
}
