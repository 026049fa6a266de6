export type { DispositionType } from './content-filename.js'
export {
  contentDisposition,
  contentFilename,
  FILENAME_MAX_LENGTH,
  formatFilename,
  versionFilename,
} from './content-filename.js'
export type { ContentMode, VersionType } from './content-request.js'
export {
  parseContentMode,
  parseContentResId,
  parseOriginalMode,
  parseSignedVersion,
  parseVersionParam,
  parseVersionType,
  parseWatermarkFlag,
} from './content-request.js'
export type {
  ContentBase64Body,
  ContentQuery,
  ContentReadMeta,
  ContentResult,
  NewVersionResult,
  OriginalContentBase64Body,
  OriginalContentQuery,
  ServedFile,
  VersionContentBody,
  VersionContentQuery,
} from './content-services.js'
export { CONTENT_VIEW_HISTORY, servedMimeType, viewHistoryInfo } from './content-view.js'
export type { ConversionKind, FormatDefinition } from './formats.js'
export {
  canConvertToPdf,
  checkFormatAllowed,
  conversionKind,
  FORMATS,
  formatDefinition,
  isFormatAllowed,
  mimeTypeOfFormat,
  normaliseFormat,
} from './formats.js'
export type { NewVersionKind, NewVersionRequest } from './new-version-request.js'
export { parseNewVersionBody } from './new-version-request.js'
export type {
  ChronoMerger,
  ConvertInput,
  MimeTypeSniffer,
  PdfConverter,
  PdfWatermarker,
  PreparedChronoMerge,
} from './ports.js'
export type { RgbColor, WatermarkOptions, WatermarkSettingsInput, WatermarkTextContext } from './watermark-text.js'
export {
  DEFAULT_WATERMARK_OPTIONS,
  parseWatermarkSettings,
  renderWatermarkText,
  watermarkSettingsSchema,
} from './watermark-text.js'
