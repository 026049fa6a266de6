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
export type { ConversionKind, FormatDefinition } from './formats.js'
export {
  DEFAULT_WATERMARK_OPTIONS,
  parseWatermarkSettings,
  renderWatermarkText,
  watermarkSettingsSchema,
} from './watermark-text.js'
export type { RgbColor, WatermarkOptions, WatermarkSettingsInput, WatermarkTextContext } from './watermark-text.js'
export { contentDisposition, contentFilename, FILENAME_MAX_LENGTH, formatFilename, versionFilename } from './content-filename.js'
export type { DispositionType } from './content-filename.js'
export type { ConvertInput, MimeTypeSniffer, PdfConverter, PdfWatermarker } from './ports.js'
