import type { Actor } from '../actors/actor.js'
import { hasPrivilege } from '../actors/privileges.js'
import { canConvertToPdf } from '../content/formats.js'
import { extensionOf } from '../content/serve-file.js'
import { fail } from '../errors/domain-error.js'
import type { LinksStore } from '../links/ports.js'
import { isNoteVisible } from '../notes/note.js'
import type { NotesStore } from '../notes/ports.js'
import type { RecordPerimeter } from '../perimeter/ports.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { indexingFileInformations, largestFileInBody } from './allowed-files.js'
import type {
  LetterPageServices,
  ResourceDetail,
  ResourceField,
  ResourceFileInformation,
  ResourceItems,
  ResourceVersions,
} from './letter-page.js'
import type { LetterPageStore } from './ports.js'
import { phpJsonObject, resourceDetail } from './resource-detail.js'

/** What the letter page's use cases need from the outside. */
export interface LetterPageDependencies {
  readonly letterPage: LetterPageStore
  readonly perimeter: RecordPerimeter
  readonly notes: Pick<NotesStore, 'notesOf'>
  readonly links: Pick<LinksStore, 'linkedIds'>
}

/** The fields `fields/{fieldId}` reads (20.10's `$authorizedFields`). */
const READABLE_FIELDS = ['destination', 'status', 'externalId'] as const

/**
 * The record addressed by the path, in the actor's perimeter. A malformed, huge, unknown or forbidden id answers
 * alike, 403 `Document out of perimeter`, as 20.10 does: nothing tells whether a record outside exists.
 */
async function addressed(deps: LetterPageDependencies, actor: Actor, text: string | undefined): Promise<number> {
  const resId = databaseIdOf(text, 'bigint')
  if (resId === null || !(await deps.perimeter.allows(actor, resId))) fail('OUT_OF_PERIMETER')
  return resId
}

/** Whether a file of this format (none: no file) converts to PDF. */
function converts(format: string | null): boolean {
  return format !== null && canConvertToPdf(format)
}

/** A record allowed a moment ago and gone since answers 20.10's `Document does not exist`. */
function found<T>(value: T | null): T {
  return value ?? fail('DOCUMENT_NOT_FOUND')
}

export async function readResource(
  deps: LetterPageDependencies,
  actor: Actor,
  resIdText: string | undefined,
  lightText?: string,
): Promise<ResourceDetail> {
  const resId = await addressed(deps, actor, resIdText)
  // 20.10 tests `empty($queryParams['light'])`: any value but '' and '0' asks for the light answer.
  const light = lightText !== undefined && lightText !== '' && lightText !== '0'
  const stored = found(await deps.letterPage.resource(resId, light))
  return resourceDetail(stored, light, await deps.letterPage.surroundings(actor, resId))
}

export async function readItems(
  deps: LetterPageDependencies,
  actor: Actor,
  resIdText: string | undefined,
): Promise<ResourceItems> {
  const resId = await addressed(deps, actor, resIdText)
  const linkedIds = (await deps.links.linkedIds(resId))
    .map((id) => databaseIdOf(id, 'bigint'))
    .filter((id): id is number => id !== null)
  const [linked, counts, notes] = await Promise.all([
    deps.perimeter.allowedAmong(actor, linkedIds),
    deps.letterPage.itemCounts(resId),
    deps.notes.notesOf(resId),
  ])
  const lists = counts.listsByType
  return {
    linkedResources: linked.size,
    attachments: counts.attachments,
    diffusionList: lists.get('entity_id') ?? 0,
    visaCircuit: lists.get('VISA_CIRCUIT') ?? 0,
    // 20.10 counts every other list type as the opinion circuit.
    opinionCircuit: [...lists].reduce(
      (sum, [type, n]) => (type === 'entity_id' || type === 'VISA_CIRCUIT' ? sum : sum + n),
      0,
    ),
    notes: notes.filter((note) =>
      isNoteVisible({ authorId: note.authorId, entityIds: (note.restriction ?? []).map((r) => r.itemId) }, actor),
    ).length,
    emails: counts.acknowledgementReceipts,
  }
}

export async function readField(
  deps: LetterPageDependencies,
  actor: Actor,
  resIdText: string | undefined,
  fieldId: string | undefined,
  alt?: string,
): Promise<ResourceField> {
  const resId = await addressed(deps, actor, resIdText)
  const readable = READABLE_FIELDS.find((name) => name === fieldId) ?? fail('FIELD_OUT_OF_PERIMETER')
  const fields = found(await deps.letterPage.fields(resId))
  if (readable === 'externalId') return { field: phpJsonObject(fields.externalId) }
  if (readable === 'destination' && alt && fields.destination) return { field: fields.destinationSerialId }
  return { field: fields[readable] }
}

export async function readFileInformation(
  deps: LetterPageDependencies,
  actor: Actor,
  resIdText: string | undefined,
): Promise<ResourceFileInformation> {
  const resId = await addressed(deps, actor, resIdText)
  // 20.10 reads a record gone since the perimeter check as one without a file.
  const facts = await deps.letterPage.fileFacts(resId)
  const format = facts?.format ?? null
  const canConvert = converts(format)
  if (!facts || !hasPrivilege(actor, 'view_technical_infos')) return { information: { canConvert, format } }
  return {
    information: {
      format,
      fingerprint: facts.fingerprint,
      filesize: facts.filesize,
      fulltext_result: facts.fulltextResult,
      filename: facts.filename,
      docserver_id: facts.docserverId,
      path: facts.path,
      typist: facts.typist,
      typistLabel: facts.typistLabel,
      creationDate: facts.creationDate,
      canConvert,
    },
  }
}

export async function readVersions(
  deps: LetterPageDependencies,
  actor: Actor,
  resIdText: string | undefined,
): Promise<ResourceVersions> {
  const resId = await addressed(deps, actor, resIdText)
  const stored = await deps.letterPage.versions(resId)
  const byType = { DOC: [] as number[], PDF: [] as number[], SIGN: [] as number[], NOTE: [] as number[] }
  if (!stored?.filename) return byType
  const convert = converts(stored.format)
  const converted = new Set<number>()
  for (const file of stored.files) {
    if (file.type === 'PDF') converted.add(file.version)
    else if (Object.hasOwn(byType, file.type)) byType[file.type as 'DOC' | 'SIGN' | 'NOTE'].push(file.version)
    // Mailroom converts a version on its first read (20.10 at its creation): a version whose original
    // converts has a PDF for content/{version}?type=PDF, stored yet or not.
    if (file.type === 'DOC' && canConvertToPdf(extensionOf(null, file.filename))) converted.add(file.version)
  }
  // The current version is the record's own file, which adr_letterbox does not list as a DOC.
  if (stored.version !== null) {
    byType.DOC.push(stored.version)
    if (convert) converted.add(stored.version)
  }
  return { ...byType, PDF: [...converted].sort((a, b) => a - b), convert }
}

/** The letter page's use cases over their ports (storage implements them, the composition root wires them). */
export function createLetterPageUseCases(deps: LetterPageDependencies): LetterPageServices {
  return {
    resource: (actor, resId, light) => readResource(deps, actor, resId, light),
    items: (actor, resId) => readItems(deps, actor, resId),
    field: (actor, resId, fieldId, alt) => readField(deps, actor, resId, fieldId, alt),
    fileInformation: (actor, resId) => readFileInformation(deps, actor, resId),
    versions: (actor, resId) => readVersions(deps, actor, resId),
    fileInformations: async (_actor, bodyLimitBytes) => indexingFileInformations(largestFileInBody(bodyLimitBytes)),
  }
}
