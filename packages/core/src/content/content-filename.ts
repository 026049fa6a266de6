/** Longest subject part of a filename, in characters (reference `TextFormatModel::formatFilename`, maxLength 250). */
export const FILENAME_MAX_LENGTH = 250

const FORBIDDEN_FILENAME_CHARACTERS = /[\\/:*?"<>|]/g

/**
 * The reference's filename formatting of a subject: cut to 250 characters (code points, like PHP `mb_substr`),
 * then each of `\ / : * ? " < > |` replaced by `_`. A missing subject gives an empty string.
 */
export function formatFilename(subject: string | null | undefined): string {
  return Array.from(subject ?? '')
    .slice(0, FILENAME_MAX_LENGTH)
    .join('')
    .replace(FORBIDDEN_FILENAME_CHARACTERS, '_')
}

/**
 * The filename of a record's content: formatted subject + `.` + extension (lower-cased), so an empty subject
 * gives `.pdf`. For `content`, the reference names the served PDF after the ORIGINAL format in base64 mode;
 * the caller picks which extension to pass.
 */
export function contentFilename(subject: string | null | undefined, extension: string): string {
  return `${formatFilename(subject)}.${extension.toLowerCase()}`
}

/** The filename of `content/{version}`: `<subject>_V<version>.<ext>`. */
export function versionFilename(subject: string | null | undefined, version: number, extension: string): string {
  return `${formatFilename(subject)}_V${version}.${extension.toLowerCase()}`
}

/** `inline` opens the file in the browser (`mode=view`), `attachment` downloads it. */
export type DispositionType = 'inline' | 'attachment'
