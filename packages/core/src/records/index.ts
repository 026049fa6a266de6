/** Record creation: body checks, the earlier form's translation, chrono numbers, dates and base64. */
export { isEmptyValue, isMissing, isPlainObject, readBoolean, readId, readInteger, readList } from './body-values.js'
export type { CreateCheckInput, InspectedFile } from './check-create-body.js'
export { checkCreateBody } from './check-create-body.js'
export type { ChronoPlan } from './chrono.js'
export { chronoPlan } from './chrono.js'
export { collectReferences } from './collect-references.js'
export type { CreateRecordDependencies } from './create-record.js'
export { createRecord } from './create-record.js'
export { decodeBase64 } from './decode-base64.js'
export { earlierReferences, isEarlierVariant, translateEarlierBody } from './earlier-variant.js'
export type { ForcedValueContext } from './force-disabled-fields.js'
export { forceDisabledFields } from './force-disabled-fields.js'
export { INDEXING_KEYWORD_MACROS, indexingEntityCodes } from './indexing-entities.js'
export type { DiffusionItem, NewRecord, NewRecordFile, RecordContact, RecordIntegrations } from './new-record.js'
export { isoDay, parseLooseDate, startOfUtcDay } from './parse-loose-date.js'
export type {
  CreatePreparation,
  CustomFieldFacts,
  DisabledModelField,
  EarlierReferenceFacts,
  EarlierReferenceQuery,
  IndexingModelFacts,
  RecordReferenceFacts,
  RecordReferenceQuery,
  RecordsRepository,
  RecordTreeEntity,
  StagedFile,
} from './ports.js'
export type { RecordsServices } from './records-services.js'
export { createRecordsUseCases } from './records-services.js'
