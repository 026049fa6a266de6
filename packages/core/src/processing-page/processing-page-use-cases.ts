import type { Actor } from '../actors/actor.js'
import { hasPrivilege } from '../actors/privileges.js'
import type {
  ContactsCustomFields,
  DestinationChanging,
  ExternalSummary,
  HistoryPage,
  IndexingModelEntities,
  ProcessingData,
} from '../api/processing-page-schemas.js'
import { controlList } from '../baskets/basket-use-cases.js'
import type { BasketListPath, BasketStore } from '../baskets/ports.js'
import type { EntityRepository } from '../entities/ports.js'
import { fail } from '../errors/domain-error.js'
import { parseNotesLimit } from '../notes/note-request.js'
import type { RecordPerimeter } from '../perimeter/ports.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { visibleChronos } from '../status/change-status.js'
import { redactHistoryEntry } from '../status/history-redaction.js'
import type { RecordStatusStore } from '../status/ports.js'
import { isEmptyParam, parseHistoryQuery } from './history-query.js'
import { indexingModelEntityTree } from './indexing-model-entities.js'
import type { ProcessingPageServices, ProcessingPageStore } from './ports.js'

/** What the letter's page's reads need from the outside. */
export interface ProcessingPageDependencies {
  readonly processingPage: ProcessingPageStore
  readonly baskets: BasketStore
  readonly perimeter: RecordPerimeter
  readonly entities: Pick<EntityRepository, 'listAll'>
  /** The records bearing a chrono, to hide a history line's chrono of a record outside the reader's perimeter. */
  readonly statuses: Pick<RecordStatusStore, 'recordsBearing'>
}

/** A record addressed by id that the actor may read: anything else is 'Document out of perimeter' (20.10's 403). */
async function readableRecord(deps: ProcessingPageDependencies, actor: Actor, text: unknown): Promise<number> {
  const resId = databaseIdOf(text, 'bigint')
  if (resId === null || !(await deps.perimeter.allows(actor, resId))) fail('OUT_OF_PERIMETER')
  return resId
}

/** A path id 20.10 checks with intVal first (403 naming it). Past the column it names nothing: the same answer. */
function pathId(text: string | undefined, param: 'resId' | 'userId' | 'groupId' | 'basketId'): void {
  if (text === undefined || !/^[0-9]+$/.test(text)) fail('PROCESSING_PARAM_NOT_INTEGER', { param })
}

/**
 * `GET /rest/resources/{resId}/users/{userId}/groups/{groupId}/baskets/{basketId}/processingData` as
 * `ResController::getProcessingData`: the ids, the basket's listControl, then the group's list_event_data for
 * the basket, with `canUpdate: false` when the letter's status forbids changes. 20.10 reads the letter without
 * asking whether the caller may: Mailroom asks (403 'Document out of perimeter'), so that the answer never tells
 * whether a letter outside the perimeter exists or what its status allows.
 */
export async function readProcessingData(
  deps: ProcessingPageDependencies,
  actor: Actor,
  resIdText: string | undefined,
  path: BasketListPath,
): Promise<ProcessingData> {
  pathId(path.groupId, 'groupId')
  pathId(path.userId, 'userId')
  pathId(path.basketId, 'basketId')
  pathId(resIdText, 'resId')
  const { basket, group } = await controlList(deps, actor, path)
  const resId = await readableRecord(deps, actor, resIdText)
  const groupBasket = await deps.baskets.groupBasket(basket.basketId, group.groupId)
  const stored = groupBasket?.listEventData
  if (stored === null || stored === undefined || stored === '') return { listEventData: null }
  const listEventData = typeof stored === 'object' ? stored : null
  if (listEventData === null) return { listEventData: null }
  const record = await deps.processingPage.recordStatus(resId)
  if (!record?.status) fail('PROCESSING_STATUS_MISSING')
  if (record.canBeModified) return { listEventData: listEventData as ProcessingData['listEventData'] }
  // PHP sets a key on the decoded value: an array becomes an object then.
  return { listEventData: { ...(Array.isArray(listEventData) ? {} : listEventData), canUpdate: false } }
}

/**
 * `GET /rest/resources/{resId}/users/{userId}/isDestinationChanging` as
 * `PreProcessActionController::isDestinationChanging`: the letter in the perimeter, then the user (any user: the
 * redirect dialog asks about the assignee it proposes), then whether that user belongs to the letter's department.
 * A letter without a department changes it (20.10's answer too).
 */
export async function readDestinationChanging(
  deps: ProcessingPageDependencies,
  actor: Actor,
  resIdText: string | undefined,
  userIdText: string | undefined,
): Promise<DestinationChanging> {
  const resId = await readableRecord(deps, actor, resIdText)
  const userId = databaseIdOf(userIdText)
  const userEntities = userId === null ? null : await deps.processingPage.userEntityCodes(userId)
  if (userEntities === null) fail('DESTINATION_USER_NOT_FOUND')
  const destination = await deps.processingPage.recordDestination(resId)
  return { isDestinationChanging: destination === null || !userEntities.includes(destination) }
}

/**
 * `GET /rest/externalSummary/{resId}` as `SummaryController::getByResId`: the perimeter, the limit, then the
 * e-mails, acknowledgement receipts and exchanges sent about the letter. Mailroom sends none of them: the list
 * is always empty, after the same checks.
 */
export async function readExternalSummary(
  deps: ProcessingPageDependencies,
  actor: Actor,
  resIdText: string | undefined,
  limit: unknown,
): Promise<ExternalSummary> {
  await readableRecord(deps, actor, resIdText)
  parseNotesLimit(Array.isArray(limit) ? limit.at(-1) : limit)
  return { elementsSend: [] }
}

/**
 * `GET /rest/history` as `HistoryController::get`. With a record: in the perimeter, then `view_full_history`, or
 * `view_doc_history` for the actions' lines only (`onlyActions`); without: `view_history`. A line naming the
 * chrono of a record outside the reader's perimeter shows a neutral mention instead (as the record's history does).
 */
export async function readHistoryPage(
  deps: ProcessingPageDependencies,
  actor: Actor,
  query: Readonly<Record<string, unknown>>,
): Promise<HistoryPage> {
  const resIdText = Array.isArray(query.resId) ? query.resId.at(-1) : query.resId
  let resId: number | null = null
  if (!isEmptyParam(resIdText)) {
    resId = await readableRecord(deps, actor, resIdText)
    const onlyActions = Array.isArray(query.onlyActions) ? query.onlyActions.at(-1) : query.onlyActions
    if (
      !hasPrivilege(actor, 'view_full_history') &&
      (isEmptyParam(onlyActions) || !hasPrivilege(actor, 'view_doc_history'))
    )
      fail('SERVICE_FORBIDDEN')
  } else if (!hasPrivilege(actor, 'view_history')) fail('SERVICE_FORBIDDEN')
  const { lines, count } = await deps.processingPage.historyPage(parseHistoryQuery(query, resId))
  const visible = await visibleChronos(deps, actor, lines)
  return { history: lines.map((line) => redactHistoryEntry(line, visible)), count }
}

/** `GET /rest/indexingModels/entities` as `IndexingModelController::getEntities`: any signed-in user. */
export async function readIndexingModelEntities(deps: ProcessingPageDependencies): Promise<IndexingModelEntities> {
  return { entities: indexingModelEntityTree(await deps.entities.listAll()) }
}

/**
 * `GET /rest/contactsCustomFields` as `ContactCustomFieldController::get`: any signed-in user. Mailroom has no
 * contact custom fields (contacts_custom_fields_list): the list is empty, as on an installation that defines none.
 */
export async function readContactsCustomFields(): Promise<ContactsCustomFields> {
  return { customFields: [] }
}

/** The letter's page's reads over their ports (storage implements them, the composition root wires them). */
export function createProcessingPageUseCases(deps: ProcessingPageDependencies): ProcessingPageServices {
  return {
    processingData: (actor, resId, basket) => readProcessingData(deps, actor, resId, basket),
    isDestinationChanging: (actor, resId, userId) => readDestinationChanging(deps, actor, resId, userId),
    externalSummary: (actor, resId, limit) => readExternalSummary(deps, actor, resId, limit),
    history: (actor, query) => readHistoryPage(deps, actor, query),
    indexingModelEntities: () => readIndexingModelEntities(deps),
    contactsCustomFields: () => readContactsCustomFields(),
  }
}
