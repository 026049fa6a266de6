import { createHash } from 'node:crypto'
import type { Database, DocumentStore } from '@mailroom/storage'
import type { Kysely } from 'kysely'
import { type DocserverLocations, maarchFilePath, readIfPresent } from '../files.js'
import type { MaarchSource } from '../source.js'
import type { Tally } from './tally.js'

/** A row naming a stored file, on either side (docserver_id, path, filename; fingerprint in the target). */
export type FileColumns = Readonly<Record<string, unknown>>

/** The hash a stored fingerprint was made with, told by its length (the importer stores SHA-256). */
function algorithmOf(fingerprint: string): string {
  return { 32: 'md5', 40: 'sha1', 128: 'sha512' }[fingerprint.length] ?? 'sha256'
}

const hash = (algorithm: string, bytes: Uint8Array) => createHash(algorithm).update(bytes).digest('hex')

/**
 * Compares files: the source's bytes (read from Maarch's docservers) with the target's stored fingerprint,
 * and the target's bytes (read from Mailroom's document store) with that same fingerprint.
 */
export class FileComparer {
  readonly #source = new Map<string, string>()
  readonly #target = new Map<string, string>()
  readonly #locations: DocserverLocations
  readonly #store: DocumentStore
  readonly #tally: Tally
  readonly #notes: string[]
  #bytes = 0

  private constructor(locations: DocserverLocations, store: DocumentStore, tally: Tally, notes: string[]) {
    this.#locations = locations
    this.#store = store
    this.#tally = tally
    this.#notes = notes
  }

  /** Reads both sides' docservers (id and path template). */
  static async open(
    source: MaarchSource,
    target: Kysely<Database>,
    locations: DocserverLocations,
    store: DocumentStore,
    tally: Tally,
    notes: string[],
  ): Promise<FileComparer> {
    const comparer = new FileComparer(locations, store, tally, notes)
    for (const d of await source.rows('select docserver_id, path_template from docservers'))
      comparer.#source.set(String(d.docserver_id), String(d.path_template))
    for (const d of await target.selectFrom('docservers').select(['docserver_id', 'path_template']).execute())
      comparer.#target.set(d.docserver_id, d.path_template)
    return comparer
  }

  /** Bytes of files read so far, both sides. */
  get bytesRead(): number {
    return this.#bytes
  }

  /** One file, `id` naming it (`record 12 original`); null on a side whose row names no file. */
  async compare(id: string, source: FileColumns | null, target: FileColumns | null): Promise<void> {
    const named = (f: FileColumns | null): f is FileColumns => Boolean(f?.filename) && Boolean(f?.docserver_id)
    const inSource = named(source)
    const inTarget = named(target)
    this.#tally.count('files', inSource ? 1 : 0, inTarget ? 1 : 0)
    if (!inSource && !inTarget) return
    const differ = (what: string, sourceValue?: string | null, targetValue?: string | null) =>
      this.#tally.differ({
        kind: 'files',
        id,
        what,
        ...(sourceValue === undefined ? {} : { source: sourceValue }),
        ...(targetValue === undefined ? {} : { target: targetValue }),
      })
    const sourceFile = inSource ? this.#sourcePath(source) : null
    const sourceBytes = inSource ? await readIfPresent(sourceFile) : null
    this.#bytes += sourceBytes?.length ?? 0
    if (!inTarget) {
      if (sourceBytes === null) this.#notes.push(`${id}: ${sourceFile ?? 'its file'} is on neither side`)
      else differ('missing in the target', sourceFile)
      return
    }
    const stored = String(target.fingerprint ?? '').toLowerCase()
    const algorithm = algorithmOf(stored)
    const key = this.#targetKey(target)
    const targetBytes = key === null ? null : await this.#read(key)
    this.#bytes += targetBytes?.length ?? 0
    if (targetBytes === null) differ("the target's file is missing", null, key ?? String(target.filename))
    else {
      const actual = hash(algorithm, targetBytes)
      if (stored !== '' && actual !== stored)
        differ(`the target's bytes do not match its stored fingerprint (${algorithm.toUpperCase()})`, stored, actual)
    }
    if (!inSource) differ('in the target only, not in the source', null, stored)
    else if (sourceBytes === null) differ("the source's file is missing", sourceFile, stored)
    else {
      const expected = hash(algorithm, sourceBytes)
      const reference = stored !== '' ? stored : targetBytes === null ? null : hash(algorithm, targetBytes)
      if (reference !== null && expected !== reference)
        differ(`the source's bytes differ from the target's (${algorithm.toUpperCase()})`, expected, reference)
    }
  }

  #sourcePath(f: FileColumns): string | null {
    const id = String(f.docserver_id)
    const template = this.#source.get(id)
    return template === undefined
      ? null
      : maarchFilePath(this.#locations, id, template, String(f.path ?? ''), String(f.filename))
  }

  #targetKey(f: FileColumns): string | null {
    const template = this.#target.get(String(f.docserver_id))
    return template === undefined ? null : this.#store.keyOf(template, String(f.path ?? ''), String(f.filename))
  }

  /** The target file's bytes, null when the store has no such file. */
  async #read(key: string): Promise<Buffer | null> {
    if ((await this.#store.size(key)) === null) return null
    const chunks: Buffer[] = []
    for await (const chunk of await this.#store.read(key)) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks)
  }
}
