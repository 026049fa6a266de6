import type { AttachmentTypeDefinition } from '@mailroom/core'
import { XMLParser } from 'fast-xml-parser'
import type { OrganisationNote } from './map-organisation.js'

type Row = Record<string, unknown>

/**
 * Attachment types of a Maarch 20.10 installation. 20.10 keeps them in a configuration file, not in its
 * database: `apps/maarch_entreprise/xml/entreprise.xml` (or the custom copy `custom/<id>/apps/…`), section
 * `<attachment_types>`, read by AttachmentModel::getAttachmentsTypesByXML. Later releases keep them in a table
 * `attachment_types`. The importer takes the table when the source has one, else the file when given, else the
 * types 20.10 installs; and adds any type its attachments use that the list lacks, so no attachment is left
 * with a type the organisation does not know.
 */

/** The French labels of the constants 20.10's installed file names its types with (src/core/lang/lang-fr.php). */
const LABELS: Readonly<Record<string, string>> = {
  _RESPONSE_PROJECT: 'Projet de réponse',
  _SIGNED_RESPONSE: 'Réponse signée',
  _OUTGOING_MAIL_SIGNED: 'Courrier départ signé',
  _A_PJ: 'Pièce jointe',
  _INCOMING_PJ: 'Pièce jointe capturée',
  _WAYBILL: "Bordereau d'envoi",
  _ROUTING: 'Fiche de circulation',
  _OUTGOING_MAIL: 'Courrier départ spontané',
  _SUMMARY_SHEET: 'Fiche de liaison',
  _ACKNOWLEDGEMENT_RECORD_MANAGEMENT: 'Accusé de réception (Archivage)',
  _REPLY_RECORD_MANAGEMENT: 'Réponse au transfert (Archivage)',
}

/** A type as 20.10 reads it: `sign`, `chrono`, `show` true unless set to something else, `attachInMail` only when true. */
function type(
  id: string,
  label: string,
  attributes: { icon?: string; sign?: string; chrono?: string; attachInMail?: string; show?: string },
): AttachmentTypeDefinition {
  const flag = (value: string | undefined) => value === undefined || value === '' || value === 'true'
  return {
    id,
    label: LABELS[label] ?? (label === '' ? id : label),
    icon: attributes.icon ?? '',
    sign: flag(attributes.sign),
    chrono: flag(attributes.chrono),
    attachInMail: attributes.attachInMail === 'true',
    show: flag(attributes.show),
  }
}

/** The types of the entreprise.xml 20.10 installs (what GET /rest/attachmentsTypes answers on the publisher's sample). */
export const MAARCH_INSTALLED_ATTACHMENT_TYPES: readonly AttachmentTypeDefinition[] = [
  type('response_project', '_RESPONSE_PROJECT', { chrono: 'true', attachInMail: 'true', icon: 'R', sign: 'true' }),
  type('signed_response', '_SIGNED_RESPONSE', { show: 'false', attachInMail: 'true', sign: 'false' }),
  type('simple_attachment', '_A_PJ', { chrono: 'false', icon: 'PJ', sign: 'false' }),
  type('incoming_mail_attachment', '_INCOMING_PJ', { chrono: 'false', sign: 'false' }),
  type('outgoing_mail', '_OUTGOING_MAIL', { icon: 'DS', sign: 'true' }),
  type('summary_sheet', '_SUMMARY_SHEET', { show: 'false', sign: 'false' }),
  type('acknowledgement_record_management', '_ACKNOWLEDGEMENT_RECORD_MANAGEMENT', { show: 'false', sign: 'false' }),
  type('reply_record_management', '_REPLY_RECORD_MANAGEMENT', { show: 'false', sign: 'false' }),
]

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value).trim())

/**
 * The `<attachment_types>` of an entreprise.xml, as 20.10 reads them (commented-out types are not types).
 * Throws when the text is not XML or has no such section: a file given on purpose that says nothing is a mistake.
 */
export function parseEntrepriseXml(xml: string): AttachmentTypeDefinition[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    isArray: (name) => name === 'type',
  })
  const parsed = parser.parse(xml, true) as { ROOT?: { attachment_types?: { type?: Row[] } | string } }
  const section = parsed.ROOT?.attachment_types
  if (section === undefined) throw new Error('entreprise.xml has no <attachment_types> section under <ROOT>')
  const types = typeof section === 'object' ? (section.type ?? []) : []
  return types.map((t) =>
    type(text(t.id), text(t.label), {
      icon: text(t.icon),
      sign: text(t.sign),
      chrono: text(t.with_chrono),
      attachInMail: text(t.attach_in_mail),
      show: text(t.show),
    }),
  )
}

/** A type of a later release's `attachment_types` table (type_id, label, icon, signable, chrono, email_link, visible). */
function fromTable(row: Row): AttachmentTypeDefinition {
  const yes = (value: unknown) => value === true || value === 'true' || value === 'Y'
  return {
    id: text(row.type_id),
    label: text(row.label) || text(row.type_id),
    icon: text(row.icon),
    sign: yes(row.signable ?? row.sign),
    chrono: yes(row.chrono),
    attachInMail: yes(row.email_link ?? row.attach_in_mail),
    show: yes(row.visible ?? row.show),
  }
}

/** Where the installation's types were read, for the notes. */
export interface MaarchAttachmentTypeSources {
  /** Rows of the source's `attachment_types` table; null when it has none (20.10). */
  readonly table: readonly Row[] | null
  /** The types of the entreprise.xml given to the import; null when none was given. */
  readonly configured: readonly AttachmentTypeDefinition[] | null
  /** The types the source's attachments use. */
  readonly used: readonly string[]
}

const CODE = /^[A-Za-z0-9_.-]{1,255}$/

/** The organisation document's `attachmentTypes` for the installation, and a note for each change made. */
export function mapAttachmentTypes(
  sources: MaarchAttachmentTypeSources,
  notes: OrganisationNote[],
): AttachmentTypeDefinition[] {
  const listed =
    sources.table !== null
      ? sources.table.map(fromTable)
      : (sources.configured ?? MAARCH_INSTALLED_ATTACHMENT_TYPES.map((t) => ({ ...t })))
  const types = new Map<string, AttachmentTypeDefinition>()
  for (const t of listed) {
    if (!CODE.test(t.id)) {
      notes.push({
        section: 'attachmentTypes',
        id: t.id,
        message: 'id not storable (letters, digits, "_", "-", "."): left out',
      })
      continue
    }
    if (types.has(t.id)) {
      notes.push({ section: 'attachmentTypes', id: t.id, message: 'listed twice: the first kept' })
      continue
    }
    let icon = t.icon
    if (icon.length > 10) {
      icon = icon.slice(0, 10)
      notes.push({
        section: 'attachmentTypes',
        id: t.id,
        message: `icon longer than 10 characters: kept as ${JSON.stringify(icon)}`,
      })
    }
    types.set(t.id, { ...t, icon, label: t.label.slice(0, 255) })
  }
  for (const id of sources.used) {
    if (types.has(id) || !CODE.test(id)) continue
    types.set(id, { id, label: id, icon: '', sign: false, chrono: false, attachInMail: false, show: false })
    notes.push({
      section: 'attachmentTypes',
      id,
      message: "used by attachments but not in the installation's list: added, labelled with its id and not offered",
    })
  }
  return [...types.values()]
}
