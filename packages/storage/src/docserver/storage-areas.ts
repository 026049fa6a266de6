import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'

/** The collection of Maarch's docservers record files (originals, converted versions…) go to. */
export const LETTERBOX_COLLECTION = 'letterbox_coll'
/** The collection of Maarch's docservers attachment files go to. */
export const ATTACHMENTS_COLLECTION = 'attachments_coll'

/** A storage area files are written to: its docserver and the folder template the store places them under. */
export interface WritableStorageArea {
  readonly docserverId: string
  readonly pathTemplate: string
}

/** A storage area with how its files are fingerprinted (docserver_types.fingerprint_mode; null when unset). */
export interface StorageArea extends WritableStorageArea {
  readonly fingerprintMode: string | null
}

/**
 * The first writable storage area of each docserver type (DOC for originals, CONVERT for converted
 * versions…) of a collection (the letterbox one unless told), by type.
 */
export async function writableStorageAreas(
  db: Kysely<Database>,
  collection = LETTERBOX_COLLECTION,
): Promise<Map<string, WritableStorageArea>> {
  const rows = await db
    .selectFrom('docservers')
    .select(['docserver_id', 'docserver_type_id', 'path_template'])
    .where('is_readonly', '=', 'N')
    .where('coll_id', '=', collection)
    .orderBy('id')
    .execute()
  const areas = new Map<string, WritableStorageArea>()
  for (const row of rows)
    if (!areas.has(row.docserver_type_id))
      areas.set(row.docserver_type_id, { docserverId: row.docserver_id, pathTemplate: row.path_template })
  return areas
}

/** The first writable DOC area of the attachments collection: where attachment files are stored. */
export async function attachmentStorageArea(db: Kysely<Database>): Promise<WritableStorageArea | null> {
  return (await writableStorageAreas(db, ATTACHMENTS_COLLECTION)).get('DOC') ?? null
}

/** How long a storage area is remembered: the docservers table changes only by administration. */
const AREA_CACHE_MS = 5_000

function areaQuery(db: Kysely<Database>) {
  return db
    .selectFrom('docservers as d')
    .leftJoin('docserver_types as t', 't.docserver_type_id', 'd.docserver_type_id')
    .select(['d.docserver_id', 'd.path_template', 't.fingerprint_mode'])
}

function areaOf(
  row: { docserver_id: string; path_template: string; fingerprint_mode: string | null } | undefined,
): StorageArea | undefined {
  return (
    row && { docserverId: row.docserver_id, pathTemplate: row.path_template, fingerprintMode: row.fingerprint_mode }
  )
}

/** The storage area of a docserver, read afresh. */
export async function storageAreaById(db: Kysely<Database>, docserverId: string): Promise<StorageArea | undefined> {
  return areaOf(await areaQuery(db).where('d.docserver_id', '=', docserverId).executeTakeFirst())
}

/** The first writable storage area of a docserver type in a collection (reference: lowest id first), read afresh. */
export async function firstWritableArea(
  db: Kysely<Database>,
  type: string,
  collection = LETTERBOX_COLLECTION,
): Promise<StorageArea | undefined> {
  return areaOf(
    await areaQuery(db)
      .where('d.docserver_type_id', '=', type)
      .where('d.is_readonly', '=', 'N')
      .where('d.coll_id', '=', collection)
      .orderBy('d.id')
      .limit(1)
      .executeTakeFirst(),
  )
}

/**
 * Storage areas kept for a few seconds: they change only by administration, and every read and write of a
 * file needs one, so caching saves a database round trip each. Concurrent lookups of one area share one
 * query; an area found missing, or a lookup that failed, is asked again next time.
 */
export class StorageAreaCache {
  readonly #ttlMs: number
  readonly #areas = new Map<string, { area: Promise<StorageArea | undefined>; until: number }>()

  constructor(ttlMs = AREA_CACHE_MS) {
    this.#ttlMs = ttlMs
  }

  /** The area a file row's docserver_id names. */
  byId(db: Kysely<Database>, docserverId: string): Promise<StorageArea | undefined> {
    return this.#remembered(`id ${docserverId}`, () => storageAreaById(db, docserverId))
  }

  /** The first writable area of a type (DOC, CONVERT…) in a collection (letterbox unless told). */
  writable(db: Kysely<Database>, type: string, collection = LETTERBOX_COLLECTION): Promise<StorageArea | undefined> {
    return this.#remembered(`writable ${collection} ${type}`, () => firstWritableArea(db, type, collection))
  }

  #remembered(key: string, lookup: () => Promise<StorageArea | undefined>): Promise<StorageArea | undefined> {
    const now = Date.now()
    const cached = this.#areas.get(key)
    if (cached && cached.until > now) return cached.area
    const area = lookup()
    this.#areas.set(key, { area, until: now + this.#ttlMs })
    const forget = () => {
      if (this.#areas.get(key)?.area === area) this.#areas.delete(key)
    }
    area.then((found) => found ?? forget(), forget)
    return area
  }
}
