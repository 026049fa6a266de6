export type { HistoryEntry, RecordHistory } from './record-history.js'
export {
  parseResIdParam,
  RECORD_HISTORY_TABLES,
  recordHistoryResponseSchema,
  STATUS_UPDATE_HISTORY,
} from './record-history.js'
export {
  DEFAULT_HISTORY_MESSAGE,
  DEFAULT_TARGET_STATUS,
  MAX_CHRONO_LENGTH,
  MAX_HISTORY_MESSAGE_LENGTH,
  MAX_STATUS_ID_LENGTH,
  MAX_STATUS_UPDATE_TARGETS,
} from './status-limits.js'
export type { StatusServices, StatusUpdateMeta, StatusUpdateResult } from './status-services.js'
export type { TargetLookup } from './status-targets.js'
export { checkStatusTargets } from './status-targets.js'
export type { StatusTargets, StatusUpdateRequest } from './status-update-request.js'
export {
  characterLength,
  isStorableText,
  parseHistoryMessage,
  parseStatusTargets,
  parseStatusUpdateRequest,
  parseTargetStatus,
  statusUpdateBodySchema,
  toResId,
} from './status-update-request.js'
