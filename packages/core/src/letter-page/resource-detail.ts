import type { ResourceDetail } from './letter-page.js'
import type { ResourceSurroundings, StoredResource } from './ports.js'

/** A JSON object as 20.10's PHP prints a decoded one: an empty map is `[]`. */
export function phpJsonObject(value: unknown): Readonly<Record<string, unknown>> | readonly never[] | null {
  if (value === null || value === undefined) return null
  if (typeof value !== 'object' || Array.isArray(value)) return Array.isArray(value) && value.length === 0 ? [] : null
  return Object.keys(value).length === 0 ? [] : (value as Record<string, unknown>)
}

/**
 * `GET /rest/resources/{resId}` as 20.10's `ResController::getById` shapes it: the fields every record has, then
 * those of the record's indexing model only (the others are left out, as 20.10 does), the labels of what they
 * name, the correspondents when the model has them, and what the full or the light answer adds.
 */
export function resourceDetail(
  stored: StoredResource,
  light: boolean,
  surroundings: ResourceSurroundings,
): ResourceDetail {
  const inModel = new Set(stored.modelFields)
  const modelled: Record<string, unknown> = {
    subject: stored.subject,
    processLimitDate: stored.processLimitDate,
    priority: stored.priority,
  }
  if (!light) {
    Object.assign(modelled, {
      doctype: stored.doctype,
      typist: stored.typist,
      destination: stored.destination?.entityId ?? null,
      initiator: stored.initiator?.entityId ?? null,
      confidentiality: stored.confidentiality === 'Y',
      documentDate: stored.documentDate,
      arrivalDate: stored.arrivalDate,
      departureDate: stored.departureDate,
      barcode: stored.barcode,
    })
  }
  const detail: Record<string, unknown> = {
    resId: stored.resId,
    modelId: stored.modelId,
    categoryId: stored.categoryId,
    chrono: stored.chrono,
    status: stored.status,
    closingDate: stored.closingDate,
    creationDate: stored.creationDate,
    modificationDate: stored.modificationDate,
    retentionFrozen: stored.retentionFrozen,
    binding: stored.binding,
    // 20.10 prints the column as decoded: `[]` when empty (its client reads a missing flag as false).
    integrations: phpJsonObject(stored.integrations) ?? [],
    ...Object.fromEntries(Object.entries(modelled).filter(([key]) => inModel.has(key))),
  }
  // 20.10 names an entity by its serial id here, with its label beside it.
  if (detail.destination) {
    detail.destination = stored.destination?.entity?.id ?? null
    detail.destinationLabel = stored.destination?.entity?.label ?? null
  }
  if (detail.initiator) {
    detail.initiator = stored.initiator?.entity?.id ?? null
    detail.initiatorLabel = stored.initiator?.entity?.label ?? null
  }
  if (stored.status) {
    detail.statusLabel = stored.statusInfo?.label ?? null
    detail.statusAlterable = stored.statusInfo?.alterable ?? false
  }
  if (detail.priority) {
    detail.priorityLabel = stored.priorityInfo?.label ?? null
    detail.priorityColor = stored.priorityInfo?.color ?? null
  }
  if (inModel.has('senders')) detail.senders = stored.senders
  if (inModel.has('recipients')) detail.recipients = stored.recipients
  if (light) {
    detail.followed = surroundings.followed
    // Mailroom keeps no registered mail: 20.10 answers these null for a record without one.
    detail.registeredMail_returnDate = null
    detail.registeredMail_returnReason = null
    detail.registeredMail_deposit_id = null
  } else {
    detail.customFields = phpJsonObject(stored.customFields) ?? []
    detail.folders = surroundings.folders
    detail.tags = surroundings.tags
  }
  return detail as unknown as ResourceDetail
}
