import { fail } from '../errors/domain-error.js'
import { isStorableText } from '../status/status-update-request.js'

/** One member of the new diffusion list, as the client names it: a login or serial id, an entity_id or serial id. */
export interface RedirectItem {
  readonly itemId: string
  readonly itemType: 'user_id' | 'entity_id'
  /** dest (the assignee), cc, … */
  readonly itemMode: string
  readonly viewed: number
}

/** What `redirectAction` is given: the new destination entity and the new list (20.10's `data`). */
export interface RedirectData {
  /** entity_id of the new destination; null: derived from the assignee's entities as 20.10 does. */
  readonly destination: string | null
  readonly items: readonly RedirectItem[]
  /** Only the assignee changes: the copies already on the list are kept (20.10's `onlyRedirectDest` with one item). */
  readonly onlyRedirectDest: boolean
}

const ITEM_TYPES: Readonly<Record<string, RedirectItem['itemType']>> = {
  user_id: 'user_id',
  user: 'user_id',
  entity_id: 'entity_id',
  entity: 'entity_id',
}

function idText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value)
  return typeof value === 'string' && value !== '' && value.length <= 255 && isStorableText(value) ? value : null
}

/** Checks redirect's data before anything is written: every item names its id, type and mode. */
export function parseRedirectData(data: Readonly<Record<string, unknown>>): RedirectData {
  const { listInstances, destination, onlyRedirectDest } = data
  if (!Array.isArray(listInstances)) fail('ACTION_REDIRECT_DATA_INVALID')
  const items = listInstances.map((raw): RedirectItem => {
    if (typeof raw !== 'object' || raw === null) fail('ACTION_REDIRECT_DATA_INVALID')
    const item = raw as Record<string, unknown>
    const itemId = idText(item.item_id)
    const itemType = typeof item.item_type === 'string' ? ITEM_TYPES[item.item_type] : undefined
    const itemMode = typeof item.item_mode === 'string' && /^[a-z_]{1,50}$/.test(item.item_mode) ? item.item_mode : null
    if (itemId === null || itemType === undefined || itemMode === null) fail('ACTION_REDIRECT_DATA_INVALID')
    const viewed =
      typeof item.viewed === 'number' && Number.isInteger(item.viewed) && item.viewed >= 0 ? item.viewed : 0
    return { itemId, itemType, itemMode, viewed: Math.min(viewed, 2_147_483_647) }
  })
  return {
    destination: idText(destination),
    items,
    onlyRedirectDest: onlyRedirectDest === true && items.length === 1,
  }
}

/** The history rows 20.10's diffusion list update writes on the record (`ListInstanceController::updateListInstance`). */
export const DIFFUSION_LIST_HISTORY = {
  /** The assignee changed. */
  assignee: {
    tableName: 'res_letterbox',
    eventType: 'UP',
    eventId: 'diffdestuser',
    module: 'listinstance',
    info: 'Destinataire de la liste de diffusion mis à jour',
  },
  /** The new list has copies. */
  copies: {
    tableName: 'res_letterbox',
    eventType: 'UP',
    eventId: 'diffcopy',
    module: 'listinstance',
    info: 'Liste de diffusion mise à jour',
  },
} as const
