import { canConvertToPdf, FORMATS } from '../content/formats.js'
import type { AllowedFile, IndexingFileInformations } from './letter-page.js'

/**
 * Room a record's creation body keeps for its other fields beside the file: what is left of the body limit,
 * in base64, is the largest file a client may send.
 */
const BODY_FIELDS_ALLOWANCE = 64 * 1024

/** The largest file (bytes) whose base64 fits in a request body of `bodyLimitBytes`, with the other fields. */
export function largestFileInBody(bodyLimitBytes: number): number {
  return Math.max(0, Math.floor((bodyLimitBytes - BODY_FIELDS_ALLOWANCE) / 4) * 3)
}

/**
 * Mailroom's allowed formats as 20.10's `extensions.xml` lists them: one entry per extension and MIME type,
 * the extension upper-case. It is the table the creation checks files against, so the client refuses before
 * sending what the server would refuse.
 */
export function allowedFiles(): AllowedFile[] {
  return Object.entries(FORMATS).flatMap(([extension, definition]) =>
    definition.mimeTypes.map((mimeType) => ({
      extension: extension.toUpperCase(),
      mimeType,
      canConvert: canConvertToPdf(extension),
    })),
  )
}

/** `GET /rest/indexing/fileInformations`, the size labelled as 20.10 does (`round(size / 1048576, 3) . ' Mo'`). */
export function indexingFileInformations(maximumSize: number): IndexingFileInformations {
  const megabytes = Math.round((maximumSize / 1048576) * 1000) / 1000
  return { informations: { maximumSize, maximumSizeLabel: `${megabytes} Mo`, allowedFiles: allowedFiles() } }
}
