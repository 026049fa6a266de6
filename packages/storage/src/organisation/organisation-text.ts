import { fail, type OrganisationDocument } from '@mailroom/core'
import { LineCounter, parseDocument, stringify } from 'yaml'

/** Name of the JSON Schema file shipped at the repository root, for editors (yaml-language-server). */
export const ORGANISATION_SCHEMA_FILE = 'organisation.schema.json'

/**
 * Reads an organisation document written in YAML or JSON (JSON is YAML). Duplicate keys and YAML errors
 * are refused with their line and column; aliases are bounded by the library, so a small file cannot
 * expand into a huge one. The value is then for validateOrganisation to check.
 */
export function parseOrganisationText(text: string): unknown {
  // JSON is YAML, but JSON.parse reads it many times faster; YAML explains what is wrong when it is not JSON.
  if (text.trimStart().startsWith('{')) {
    try {
      return JSON.parse(text)
    } catch {}
  }
  const lines = new LineCounter()
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: false, lineCounter: lines })
  const error = document.errors[0]
  if (error !== undefined) {
    const where = lines.linePos(error.pos[0])
    const reason = `line ${where.line}, column ${where.col}: ${error.message.split('\n')[0]}`
    fail('ORGANISATION_NOT_PARSED', { reason })
  }
  try {
    return document.toJS({ maxAliasCount: 100 })
  } catch (cause) {
    return fail('ORGANISATION_NOT_PARSED', { reason: cause instanceof Error ? cause.message : String(cause) })
  }
}

/** A document as YAML, with the schema line editors use to complete and check it. */
export function formatOrganisationYaml(document: OrganisationDocument): string {
  const body = stringify(document, { lineWidth: 0, aliasDuplicateObjects: false })
  return `# yaml-language-server: $schema=${ORGANISATION_SCHEMA_FILE}\n# Mailroom organisation document (docs/organisation.md)\n${body}`
}
