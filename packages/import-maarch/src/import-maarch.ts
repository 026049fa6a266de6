import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { type Actor, fail } from '@mailroom/core'
import {
  attachmentStorageArea,
  type Database,
  type DocumentStore,
  existingAttachmentIds,
  existingRecordIds,
  FolderDocumentStore,
  highestChronoNumbers,
  type ImportedAttachmentRow,
  type ImportedRecord,
  type ImportedVersionRow,
  insertImportedRecord,
  JournalWriter,
  moveRecordIdsPastHighest,
  type OrganisationAdmin,
  raiseChronoCounter,
  type StoredDocument,
  userLogins,
  type WritableStorageArea,
  writableStorageAreas,
} from '@mailroom/storage'
import type { Kysely } from 'kysely'
import { type MaarchAttachmentTypeSources, mapAttachmentTypes, parseEntrepriseXml } from './attachment-types.js'
import { type DeltaSummary, importChanges } from './delta/import-changes.js'
import { ImportRuns } from './delta/import-runs.js'
import type { ImporterParts } from './delta/importer-parts.js'
import { checkFingerprint, type DocserverLocations, maarchFilePath, readIfPresent } from './files.js'
import {
  attachmentRow,
  contactRows,
  dateOf,
  diffusionRows,
  historyRows,
  importHistoryRow,
  type MaarchRow,
  noteRows,
  type RecordFindings,
  recordRow,
  type StoredOriginal,
  text,
} from './maarch-record-rows.js'
import { type MaarchOrganisationRows, type MaarchUserMapping, mapOrganisation } from './map-organisation.js'
import type { AttachmentEntry, ImportReportSink, MaarchImportSummary, RecordEntry, RecordReport } from './report.js'
import { type MaarchSource, openMaarchSource } from './source.js'

/** The Mailroom installation receiving the import (a `createMailroom` result fits). */
export interface MaarchImportTarget {
  readonly db: Kysely<Database>
  /** Mailroom's document store; absent: the folder docserverDir. */
  readonly documentStore?: DocumentStore
  readonly organisation: OrganisationAdmin
  actor(user: string | number): Promise<Actor>
  journalFlush(): Promise<void>
}

export interface MaarchImportOptions {
  /** URL of the Maarch 20.10 PostgreSQL database (opened read-only). */
  readonly from: string
  readonly docservers: DocserverLocations
  /** Mailroom's document storage folder (MAILROOM_DOCSERVER_DIR): needed only when the target has no documentStore. */
  readonly docserverDir?: string
  readonly dryRun?: boolean
  /**
   * Login of the Mailroom user in whose name records whose Maarch typist is not imported (a user deleted in
   * Maarch) are recorded and deposited in the digital safe; `superadmin`, Maarch's root user, by default.
   */
  readonly fallbackDepositor?: string
  /**
   * How the imported users sign in: `ldap` or `oidc` for an installation whose login_method.xml enables ldap,
   * keycloak, cas, sso, openam or azure_saml (web-service and root users keep their Maarch password).
   */
  readonly authentication?: MaarchUserMapping['authentication']
  /**
   * Path of the installation's `apps/maarch_entreprise/xml/entreprise.xml` (its custom copy when it has one),
   * where 20.10 keeps its attachment types; without it, the types 20.10 installs (and those its attachments use).
   */
  readonly entrepriseXml?: string
  /** Only the organisation ('reference') or only the records ('records'); both by default. */
  readonly only?: 'reference' | 'records'
  /** Stops between two records; what is committed stays, the next run continues. */
  readonly signal?: AbortSignal
  readonly onProgress?: (progress: ImportProgress) => void
  /** Receives the per-record report as the import goes (a `JsonReportFile`, a `ReportCollector`). */
  readonly report?: ImportReportSink
  /**
   * A delta run: only what changed in the source since then (a date and time, or `last`: the cut-off recorded
   * by the last finished run from this source); see delta/import-changes.ts.
   */
  readonly since?: Date | string
}

export interface ImportProgress {
  readonly records: number
  readonly total: number
  readonly bytes: number
}

/** The queries reading the organisation from the source, by section (the verification reads it alike). */
export const ORG_QUERIES: Record<keyof MaarchOrganisationRows, string> = {
  entities: 'select * from entities order by id',
  usergroups: 'select * from usergroups order by id',
  usergroupsServices: 'select group_id, service_id from usergroups_services order by group_id, service_id',
  security: 'select * from security order by security_id',
  users: `select * from users where status <> 'DEL' order by id`,
  usersEntities: 'select * from users_entities',
  usergroupContent: 'select * from usergroup_content',
  status: 'select * from status order by identifier',
  doctypesFirstLevel: 'select * from doctypes_first_level order by doctypes_first_level_id',
  doctypesSecondLevel: 'select * from doctypes_second_level order by doctypes_second_level_id',
  doctypes: 'select * from doctypes order by type_id',
  indexingModels: 'select * from indexing_models order by id',
  indexingModelsFields: 'select * from indexing_models_fields order by id',
  priorities: 'select * from priorities order by "order", id',
  customFields: 'select * from custom_fields order by id',
  tags: 'select * from tags order by id',
  folders: 'select * from folders order by level, id',
  entitiesFolders: 'select * from entities_folders order by id',
  contacts: 'select * from contacts order by id',
  parameters: 'select * from parameters order by id',
}

/** Records read from the source per query (and attachments listed per query). */
const PAGE = 200
/** Maarch's root user: the default fallback depositor. */
export const DEFAULT_FALLBACK_DEPOSITOR = 'superadmin'
/** Records imported at once. */
const RECORD_CONCURRENCY = 4

/** Rows of other tables for a page of records, by res_id. */
export interface Related {
  readonly adr: Map<number, MaarchRow[]>
  readonly listinstance: Map<number, MaarchRow[]>
  readonly contacts: Map<number, MaarchRow[]>
  readonly tags: Map<number, MaarchRow[]>
  readonly folders: Map<number, MaarchRow[]>
  readonly history: Map<number, MaarchRow[]>
  readonly notes: Map<number, MaarchRow[]>
  readonly attachments: Map<number, MaarchRow[]>
}

/** A record's original read from Maarch's docservers, with what its check found. */
export interface OriginalFile {
  readonly bytes: Buffer
  readonly report: NonNullable<RecordReport['file']>
}

/** An attachment read from Maarch: its row, and its file (null when not found) with what the check found. */
export interface AttachmentFile {
  readonly row: MaarchRow
  readonly bytes: Buffer | null
  readonly fingerprint: 'matched' | 'computed' | 'mismatch' | 'missing'
}

/** A converted version of a record read from Maarch's docservers. */
export interface VersionFile {
  readonly type: string
  readonly version: number
  readonly bytes: Buffer
}

/**
 * What the database refused in a record's rows (a status, doctype or user Maarch no longer has, a value too
 * long): that record is skipped and reported, its files removed, and the import goes on. Null for any
 * other failure, which stops the run.
 */
export function refusalOf(error: unknown): string | null {
  const e = error as { code?: unknown; detail?: unknown; message?: unknown }
  if (
    typeof e?.code !== 'string' ||
    !['23503', '23502', '23505', '23514', '22001', '22P02', '22007', '22008'].includes(e.code)
  )
    return null
  return String(e.detail ?? e.message ?? e.code)
}

/** The installation's attachment types: its table (later releases), the entreprise.xml given, the types its attachments use. */
async function attachmentTypeSources(
  source: MaarchSource,
  options: MaarchImportOptions,
): Promise<MaarchAttachmentTypeSources> {
  const [present] = await source.rows<{ table: boolean }>(`select to_regclass('attachment_types') is not null as table`)
  const table = present?.table === true ? await source.rows('select * from attachment_types order by type_id') : null
  const configured =
    options.entrepriseXml === undefined ? null : parseEntrepriseXml(await readFile(options.entrepriseXml, 'utf8'))
  const used = await source.rows<{ attachment_type: string }>(
    'select distinct attachment_type from res_attachments where attachment_type is not null order by 1',
  )
  return { table, configured, used: used.map((row) => row.attachment_type) }
}

/** Imports a Maarch Courrier 20.10 installation into Mailroom; see docs/migrating-from-maarch.md. */
export async function importMaarch(
  target: MaarchImportTarget,
  options: MaarchImportOptions,
): Promise<MaarchImportSummary> {
  const source = await openMaarchSource(options.from)
  try {
    return await run(source, target, options)
  } finally {
    await source.close()
  }
}

/** Where nothing is kept: the caller wants the summary only. */
const NO_REPORT: ImportReportSink = { begin: async () => {}, records: async () => {}, attachments: async () => {} }

/** How the report lists an imported record. */
export function outcomeOf(row: MaarchRow, report: RecordReport): 'imported' | 'repaired' | 'flagged' {
  if (report.file?.fingerprint === 'mismatch' || (row.filename && !report.file)) return 'flagged'
  if (report.attachments?.some((a) => a.fingerprint === 'mismatch' || a.fingerprint === 'missing')) return 'flagged'
  if (report.file?.fingerprint === 'computed' || (report.problems?.length ?? 0) > 0) return 'repaired'
  return 'imported'
}

async function run(
  source: MaarchSource,
  target: MaarchImportTarget,
  options: MaarchImportOptions,
): Promise<MaarchImportSummary> {
  const dryRun = options.dryRun === true
  const sink = options.report ?? NO_REPORT
  // Before anything is written: a --since that names no cut-off stops here.
  const runs = await ImportRuns.begin(source, target, options)
  let organisation: MaarchImportSummary['organisation'] = null
  if (options.only !== 'records') {
    // One connection, one snapshot: the queries run one after the other.
    const read: Record<string, unknown> = {}
    for (const [section, query] of Object.entries(ORG_QUERIES)) read[section] = await source.rows(query)
    const rows = read as unknown as MaarchOrganisationRows
    const { document, notes } = mapOrganisation(rows, {
      ...(options.authentication === undefined ? {} : { authentication: options.authentication }),
    })
    document.attachmentTypes = mapAttachmentTypes(await attachmentTypeSources(source, options), notes)
    // A user already in Mailroom keeps the password hash it has there: a rerun must not put back the bcrypt
    // hash that the first login replaced, nor undo a password changed since.
    const present = new Set((await userLogins(target.db)).map((login) => login.toLowerCase()))
    document.users = document.users?.map(({ passwordHash, ...user }) =>
      present.has(user.login.toLowerCase()) ? user : { ...user, passwordHash },
    )
    const result = await target.organisation.apply(document, {
      dryRun,
      author: { userId: null, name: 'import maarch' },
    })
    organisation = { applied: result.applied, lines: result.lines, notes }
  }
  await sink.begin({ sourceVersion: source.version, dryRun, organisation })
  // Only counts stay in memory; every record's entry goes to the sink a page at a time.
  const counts = { imported: 0, repaired: 0, flagged: 0, skipped: 0, attachmentsNotImported: 0 }
  const chronoCounters: { counter: string; value: number }[] = []
  let bytes = 0
  let interrupted = false

  let delta: DeltaSummary | undefined
  if (options.only !== 'reference' && runs.since !== null) {
    const importer = new RecordImporter(source, target, options)
    await importer.prepare()
    const carried = await importChanges({ source, target, options, importer, since: runs.since, sink, counts })
    ;({ delta } = carried)
    bytes += carried.bytes
    interrupted = carried.interrupted
    if (!dryRun) {
      chronoCounters.push(...(await importer.finish()))
      await target.journalFlush()
    }
  } else if (options.only !== 'reference') {
    const importer = new RecordImporter(source, target, options)
    await importer.prepare()
    const total = Number((await source.rows<{ n: string }>('select count(*) as n from res_letterbox'))[0]?.n ?? 0)
    let done = 0
    let after = 0
    for (;;) {
      const page = await source.rows(`select * from res_letterbox where res_id > $1 order by res_id limit ${PAGE}`, [
        after,
      ])
      if (page.length === 0) break
      after = Number(page.at(-1)?.res_id)
      const present = await existingRecordIds(
        target.db,
        page.map((r) => Number(r.res_id)),
      )
      const related = await importer.related(page.map((r) => Number(r.res_id)).filter((id) => !present.has(id)))
      const queue = [...page]
      const entries: RecordEntry[] = []
      let failing = false
      const worker = async () => {
        for (let row = queue.shift(); row !== undefined && !failing; row = queue.shift()) {
          if (options.signal?.aborted) {
            interrupted = true
            return
          }
          const resId = Number(row.res_id)
          if (present.has(resId)) {
            done++
            entries.push({ outcome: 'skipped', resId, reason: 'already imported' })
            continue
          }
          let report: RecordReport
          try {
            report = await importer.importRecord(row, related, dryRun)
          } catch (error) {
            const refusal = refusalOf(error)
            if (refusal === null) {
              failing = true
              throw error
            }
            done++
            entries.push({ outcome: 'skipped', resId, reason: `refused by Mailroom, not imported: ${refusal}` })
            continue
          }
          done++
          bytes += report.file?.size ?? 0
          entries.push({ outcome: outcomeOf(row, report), ...report })
          options.onProgress?.({ records: done, total, bytes })
        }
      }
      // Records are independent: a few at once overlap one's fsyncs with another's rows. A failure stops the
      // run after the records in flight; each is whole or absent either way.
      const results = await Promise.allSettled(Array.from({ length: RECORD_CONCURRENCY }, worker))
      entries.sort((a, b) => a.resId - b.resId)
      for (const entry of entries) counts[entry.outcome === 'skipped' ? 'skipped' : 'imported']++
      for (const entry of entries)
        if (entry.outcome === 'repaired' || entry.outcome === 'flagged') counts[entry.outcome]++
      // The records committed before a failure are in the report too.
      await sink.records(entries)
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
      if (failed) throw failed.reason
      if (interrupted) break
    }
    if (!dryRun) {
      chronoCounters.push(...(await importer.finish()))
      await target.journalFlush()
    }
  }
  // Attachments come with their record; those still absent (their record skipped, refused or not run) are listed.
  for (let afterAttachment = 0; ; ) {
    const page = await source.rows(
      `select res_id, res_id_master, title from res_attachments where coalesce(status, '') <> 'DEL' and res_id > $1 order by res_id limit ${PAGE}`,
      [afterAttachment],
    )
    if (page.length === 0) break
    afterAttachment = Number(page.at(-1)?.res_id)
    const present = await existingAttachmentIds(
      target.db,
      page.map((a) => Number(a.res_id)),
    )
    const attachments: AttachmentEntry[] = page
      .filter((a) => !present.has(Number(a.res_id)))
      .map((a) => ({
        resId: Number(a.res_id),
        resIdMaster: a.res_id_master === null ? null : Number(a.res_id_master),
        title: text(a.title) ?? null,
      }))
    counts.attachmentsNotImported += attachments.length
    await sink.attachments(attachments)
  }
  const summary = { sourceVersion: source.version, dryRun, organisation, interrupted, counts, chronoCounters, bytes }
  return runs.end({ ...summary, ...(delta ? { delta } : {}) })
}

export class RecordImporter {
  readonly #source: MaarchSource
  readonly #target: MaarchImportTarget
  readonly #options: MaarchImportOptions
  readonly #writer: DocumentStore
  readonly #journal = new JournalWriter()
  readonly #actors = new Map<number, Actor | null>()
  /** Ids of the source's users the organisation brings over (for a dry run, where it is not applied). */
  #sourceUsers = new Set<number>()
  #fallback: { readonly login: string; readonly actor: Actor | null; readonly willExist: boolean } = {
    login: DEFAULT_FALLBACK_DEPOSITOR,
    actor: null,
    willExist: false,
  }
  #docservers = new Map<string, { pathTemplate: string; mode: string | null }>()
  /** Mailroom's writable storage areas by docserver type (DOC, CONVERT). */
  #areas = new Map<string, WritableStorageArea>()
  /** Where Mailroom stores attachment files (the attachments collection's writable DOC area). */
  #attachmentArea: WritableStorageArea | null = null

  constructor(source: MaarchSource, target: MaarchImportTarget, options: MaarchImportOptions) {
    this.#source = source
    this.#target = target
    this.#options = options
    const writer =
      target.documentStore ??
      (options.docserverDir === undefined ? undefined : new FolderDocumentStore(options.docserverDir))
    if (!writer) throw new Error("importMaarch needs the target's documentStore or docserverDir")
    this.#writer = writer
  }

  async prepare(): Promise<void> {
    const rows = await this.#source.rows(
      'select d.docserver_id, d.path_template, t.fingerprint_mode from docservers d left join docserver_types t using (docserver_type_id)',
    )
    this.#docservers = new Map(
      rows.map((r) => [
        String(r.docserver_id),
        { pathTemplate: String(r.path_template), mode: text(r.fingerprint_mode) ?? null },
      ]),
    )
    this.#areas = await writableStorageAreas(this.#target.db)
    this.#attachmentArea = await attachmentStorageArea(this.#target.db)
    const users = await this.#source.rows<{ id: number; user_id: string }>(
      `select id, user_id from users where status <> 'DEL'`,
    )
    this.#sourceUsers = new Set(users.map((u) => Number(u.id)))
    const login = this.#options.fallbackDepositor ?? DEFAULT_FALLBACK_DEPOSITOR
    const actor = await this.#target.actor(login).catch(() => null)
    // A dry run does not apply the organisation: a login that the import brings over counts as there.
    const willExist =
      actor !== null ||
      (this.#options.dryRun === true && users.some((u) => u.user_id.toLowerCase() === login.toLowerCase()))
    if (!willExist && this.#options.fallbackDepositor !== undefined) fail('MAARCH_DEPOSITOR_UNKNOWN', { login })
    this.#fallback = { login, actor, willExist }
  }

  /**
   * Who records and deposits a record: its typist, or the fallback depositor when the typist is not imported
   * (deleted in Maarch). Then the fallback also becomes the record's typist: an id Mailroom may give a new
   * user one day must not open someone else's records to them.
   */
  async #depositor(
    typist: number,
    resId: number,
    dryRun: boolean,
    problems: string[],
  ): Promise<{ actor: Actor | null; replaced: boolean }> {
    const actor = await this.#actor(typist)
    if (actor !== null || (dryRun && this.#sourceUsers.has(typist))) return { actor, replaced: false }
    const fallback = this.#fallback
    if (!fallback.willExist) {
      if (!dryRun) fail('MAARCH_DEPOSITOR_UNKNOWN', { login: fallback.login, resId, typist })
      problems.push(
        `typist ${typist} is not imported and the fallback depositor ${fallback.login} does not exist: the import stops here; name one with --depositor`,
      )
      return { actor: null, replaced: false }
    }
    problems.push(`typist ${typist} is not imported (deleted in Maarch?): recorded and deposited as ${fallback.login}`)
    return { actor: fallback.actor, replaced: true }
  }

  async #file(
    docserverId: string,
    path: string,
    filename: string,
  ): Promise<{ file: string; bytes: Buffer | null; mode: string | null }> {
    const docserver = this.#docservers.get(docserverId)
    const file = docserver
      ? maarchFilePath(this.#options.docservers, docserverId, docserver.pathTemplate, path, filename)
      : null
    return {
      file: file ?? `${docserverId}:${path}${filename}`,
      bytes: await readIfPresent(file),
      mode: docserver?.mode ?? null,
    }
  }

  async #actor(userId: number): Promise<Actor | null> {
    if (!this.#actors.has(userId)) this.#actors.set(userId, await this.#target.actor(userId).catch(() => null))
    return this.#actors.get(userId) ?? null
  }

  /** The rows that hang off a page of records, read in one query per table and grouped by record. */
  async related(resIds: readonly number[]): Promise<Related> {
    const ids = [...resIds]
    const byRecord = async (query: string, key = 'res_id', values: unknown[] = [ids]) => {
      const grouped = new Map<number, MaarchRow[]>()
      if (ids.length === 0) return grouped
      for (const row of await this.#source.rows(query, values)) {
        const id = Number(row[key])
        const list = grouped.get(id)
        if (list) list.push(row)
        else grouped.set(id, [row])
      }
      return grouped
    }
    return {
      adr: await byRecord(
        `select * from adr_letterbox where res_id = any($1) and type <> 'TNL' order by version, type`,
      ),
      listinstance: await byRecord('select * from listinstance where res_id = any($1) order by listinstance_id'),
      contacts: await byRecord('select * from resource_contacts where res_id = any($1) order by id'),
      tags: await byRecord('select res_id, tag_id from resources_tags where res_id = any($1)'),
      folders: await byRecord('select res_id, folder_id from resources_folders where res_id = any($1)'),
      history: await byRecord(
        `select * from history where table_name in ('res_letterbox', 'res_view_letterbox') and record_id = any($1) order by id`,
        'record_id',
        [ids.map(String)],
      ),
      notes: await byRecord(
        `select n.*, array(select ne.item_id from note_entities ne where ne.note_id = n.id order by ne.id) as entities
         from notes n where n.identifier = any($1) order by n.id`,
        'identifier',
      ),
      // Deleted attachments stay behind, as deleted records' files do not come.
      attachments: await byRecord(
        `select * from res_attachments where res_id_master = any($1) and coalesce(status, '') <> 'DEL' order by res_id`,
        'res_id_master',
      ),
    }
  }

  /** One record: its files written first, then every row and its deposit in one transaction (a failure removes the files). */
  async importRecord(row: MaarchRow, related: Related, dryRun: boolean): Promise<RecordReport> {
    const resId = Number(row.res_id)
    const problems: string[] = []
    const original = await this.#readOriginal(row, problems)
    const versions = await this.#readVersions(related.adr.get(resId) ?? [], problems)
    const attachments = await this.#readAttachments(related.attachments.get(resId) ?? [], problems)
    // The deposit is made in the name of the record's typist, as its creation was.
    const typist = Number(row.typist)
    const { actor, replaced } = await this.#depositor(typist, resId, dryRun, problems)
    const report: RecordReport = {
      resId,
      chrono: text(row.alt_identifier) ?? null,
      ...(original ? { file: original.report } : {}),
      ...(versions.length > 0 ? { versions: versions.map(({ type, version }) => ({ type, version })) } : {}),
      ...(attachments.length > 0
        ? { attachments: attachments.map((a) => ({ resId: Number(a.row.res_id), fingerprint: a.fingerprint })) }
        : {}),
      ...(replaced ? { depositor: { typist, login: this.#fallback.login } } : {}),
      ...(problems.length > 0 ? { problems } : {}),
    }
    if (dryRun) return report

    const written: StoredDocument[] = []
    try {
      const created = dateOf(row.creation_date)
      const stored = original ? await this.#storeOriginal(row, original.bytes, created, written) : null
      const versionRows = await this.#storeVersions(versions, created, written)
      const attachmentRows = await this.#storeAttachments(attachments, written)
      const findings: RecordFindings = {
        original: stored,
        flagged: original?.report.fingerprint === 'mismatch' || (Boolean(row.filename) && stored === null),
        problems,
        replacement: replaced && actor ? { typist, by: actor.id } : null,
      }
      const imported: ImportedRecord = {
        ...this.#listsOf(resId, related),
        record: recordRow(row, findings),
        versions: versionRows,
        attachments: attachmentRows.map((a) => a.row),
        attachmentDeposits: actor
          ? attachmentRows.flatMap(({ row: attachment, stored }) =>
              stored
                ? [
                    {
                      destination: text(row.destination) ?? null,
                      sha256: stored.sha256,
                      size: stored.size,
                      actor,
                      provenance: `imported from Maarch Courrier ${this.#source.version} attachment ${attachment.res_id}`,
                    },
                  ]
                : [],
            )
          : [],
        history: historyRows(
          related.history.get(resId) ?? [],
          importHistoryRow(this.#source.version, problems, new Date()),
        ),
        deposit: original && stored && actor ? this.#deposit(row, original, stored, actor) : null,
      }
      await this.#target.db.transaction().execute((trx) => insertImportedRecord(trx, this.#journal, imported))
      return report
    } catch (error) {
      for (const s of written) await this.#writer.remove(s.key).catch(() => {})
      throw error
    }
  }

  /** The record's original as Maarch stored it, checked against its fingerprint; null (and a problem) when missing. */
  async #readOriginal(row: MaarchRow, problems: string[]): Promise<OriginalFile | null> {
    if (!row.filename || !row.docserver_id) return null
    const found = await this.#file(String(row.docserver_id), String(row.path ?? ''), String(row.filename))
    if (found.bytes === null) {
      problems.push(`original ${found.file} not found: imported without its file`)
      return null
    }
    const check = checkFingerprint(found.bytes, found.mode, text(row.fingerprint) ?? null)
    if (check.check === 'mismatch')
      problems.push(`fingerprint mismatch: source ${String(row.fingerprint)}, file ${check.computed} (${check.mode})`)
    const report = {
      source: found.file,
      size: found.bytes.length,
      fingerprint: check.check,
      mode: check.mode,
      computed: check.computed,
    }
    return { bytes: found.bytes, report }
  }

  /** The record's converted versions (adr_letterbox) found; a missing one is regenerated when read. */
  async #readVersions(adr: readonly MaarchRow[], problems: string[]): Promise<VersionFile[]> {
    const versions: VersionFile[] = []
    for (const a of adr) {
      const found = await this.#file(String(a.docserver_id), String(a.path), String(a.filename))
      if (found.bytes === null)
        problems.push(
          `${String(a.type)} version ${String(a.version)} ${found.file} not found: regenerated by conversion when read`,
        )
      else versions.push({ type: String(a.type), version: Number(a.version), bytes: found.bytes })
    }
    return versions
  }

  /** Stores the original in the DOC area (without one it is not stored: the record is flagged); `written` gets the file. */
  async #storeOriginal(
    row: MaarchRow,
    bytes: Buffer,
    created: Date,
    written: StoredDocument[],
  ): Promise<StoredOriginal | null> {
    const area = this.#areas.get('DOC')
    if (area === undefined) return null
    const format = String(row.format ?? (extname(String(row.filename ?? '')).slice(1) || 'pdf')).toLowerCase()
    // The storage names files by a safe extension only; a format Maarch let through otherwise keeps its column.
    const extension = /^[a-z0-9]{1,10}$/.test(format) ? format : 'bin'
    const document = await this.#writer.write(area.pathTemplate, extension, bytes, created)
    written.push(document)
    return { area, format, document }
  }

  /** Stores the converted versions in the CONVERT area (else the DOC one); `written` gets each file. */
  async #storeVersions(
    versions: readonly VersionFile[],
    created: Date,
    written: StoredDocument[],
  ): Promise<ImportedVersionRow[]> {
    const rows: ImportedVersionRow[] = []
    for (const v of versions) {
      const area = this.#areas.get('CONVERT') ?? this.#areas.get('DOC')
      if (area === undefined) fail('NO_WRITABLE_DOCSERVER')
      const document = await this.#writer.write(area.pathTemplate, 'pdf', v.bytes, created)
      written.push(document)
      rows.push({
        type: v.type,
        version: v.version,
        docserver_id: area.docserverId,
        path: document.path,
        filename: document.filename,
        fingerprint: document.sha256,
        filesize: document.size,
      })
    }
    return rows
  }

  /** The record's attachments and their files, each checked against its fingerprint; a file not found is reported. */
  async #readAttachments(rows: readonly MaarchRow[], problems: string[]): Promise<AttachmentFile[]> {
    const files: AttachmentFile[] = []
    for (const row of rows) {
      const id = Number(row.res_id)
      const found =
        row.filename && row.docserver_id
          ? await this.#file(String(row.docserver_id), String(row.path ?? ''), String(row.filename))
          : null
      if (found === null || found.bytes === null) {
        problems.push(`attachment ${id} file ${found?.file ?? '(none named)'} not found: imported without its file`)
        files.push({ row, bytes: null, fingerprint: 'missing' })
        continue
      }
      const check = checkFingerprint(found.bytes, found.mode, text(row.fingerprint) ?? null)
      if (check.check === 'mismatch')
        problems.push(
          `attachment ${id} fingerprint mismatch: source ${String(row.fingerprint)}, file ${check.computed} (${check.mode})`,
        )
      files.push({ row, bytes: found.bytes, fingerprint: check.check })
    }
    return files
  }

  /** Stores the attachments' files in the attachments' area; `written` gets each file. */
  async #storeAttachments(
    attachments: readonly AttachmentFile[],
    written: StoredDocument[],
  ): Promise<{ row: ImportedAttachmentRow; stored: StoredDocument | null }[]> {
    const out: { row: ImportedAttachmentRow; stored: StoredDocument | null }[] = []
    const carried = new Set(attachments.map((a) => Number(a.row.res_id)))
    for (const a of attachments) {
      let stored: StoredDocument | null = null
      const area = this.#attachmentArea
      if (a.bytes !== null) {
        if (area === null) fail('NO_WRITABLE_DOCSERVER')
        const format = String(a.row.format ?? 'pdf').toLowerCase()
        const extension = /^[a-z0-9]{1,10}$/.test(format) ? format : 'bin'
        stored = await this.#writer.write(area.pathTemplate, extension, a.bytes, dateOf(a.row.creation_date))
        written.push(stored)
      }
      const row = attachmentRow(a.row, stored && area ? { area: area.docserverId, stored } : null)
      // A version whose first one was deleted in Maarch (and so stays behind) keeps its relation, not the link.
      const origin = row.origin_id != null && !carried.has(Number(row.origin_id)) ? { origin_id: null } : {}
      out.push({ row: { ...row, ...origin }, stored })
    }
    return out
  }

  /** The record's diffusion list, senders and recipients, tags and folders, as Maarch had them. */
  #listsOf(
    resId: number,
    related: Related,
  ): Pick<ImportedRecord, 'diffusion' | 'contacts' | 'tagIds' | 'folderIds' | 'notes'> {
    const of = (table: keyof Related) => related[table].get(resId) ?? []
    return {
      diffusion: diffusionRows(of('listinstance')),
      contacts: contactRows(of('contacts')),
      tagIds: of('tags').map((t) => Number(t.tag_id)),
      folderIds: of('folders').map((f) => Number(f.folder_id)),
      notes: noteRows(of('notes')),
    }
  }

  /** The stored original's deposit in the digital safe, saying where it came from and its source fingerprint. */
  #deposit(row: MaarchRow, original: OriginalFile, stored: StoredOriginal, actor: Actor): ImportedRecord['deposit'] {
    const resId = Number(row.res_id)
    return {
      destination: text(row.destination) ?? null,
      sha256: stored.document.sha256,
      size: stored.document.size,
      actor,
      provenance:
        `imported from Maarch Courrier ${this.#source.version} record ${resId}, source fingerprint ${original.report.mode} ${String(row.fingerprint ?? '')}`.trim(),
    }
  }

  /** What importRecord reads and stores, for the delta import to carry changes onto records imported before. */
  get parts(): ImporterParts {
    return {
      sourceVersion: this.#source.version,
      journal: this.#journal,
      readOriginal: (row, problems) => this.#readOriginal(row, problems),
      readVersions: (adr, problems) => this.#readVersions(adr, problems),
      readAttachments: (rows, problems) => this.#readAttachments(rows, problems),
      storeOriginal: (row, bytes, created, written) => this.#storeOriginal(row, bytes, created, written),
      storeVersions: (versions, created, written) => this.#storeVersions(versions, created, written),
      storeAttachments: (attachments, written) => this.#storeAttachments(attachments, written),
      depositor: (typist, resId, dryRun, problems) => this.#depositor(typist, resId, dryRun, problems),
      remove: async (written) => {
        for (const s of written) await this.#writer.remove(s.key).catch(() => {})
      },
    }
  }

  /** Moves the record id sequence and the chrono counters past everything imported. */
  async finish(): Promise<{ counter: string; value: number }[]> {
    const db = this.#target.db
    await moveRecordIdsPastHighest(db)
    const counters = new Map<string, number>()
    for (const p of await this.#source.rows(
      `select id, param_value_int from parameters where id like 'chrono\\_%' and param_value_int is not null`,
    )) {
      counters.set(String(p.id), Number(p.param_value_int))
    }
    // Numbers already given count too, whatever the counters say (MAARCH/2020A/12: incoming, 2020, 12).
    const letters: Record<string, string> = { A: 'incoming', D: 'outgoing', I: 'internal', E: 'ged_doc' }
    for (const { year, letter, value } of await highestChronoNumbers(db)) {
      const category = letters[letter]
      if (category === undefined) continue
      const key = `chrono_${category}_${year}`
      counters.set(key, Math.max(counters.get(key) ?? 0, value))
    }
    const out: { counter: string; value: number }[] = []
    for (const [counter, value] of [...counters].sort()) {
      await raiseChronoCounter(db, counter, value)
      out.push({ counter, value })
    }
    return out
  }
}
