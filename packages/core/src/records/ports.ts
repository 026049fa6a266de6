import type { Actor } from '../actors/actor.js'
import type { PerimeterEntity } from '../search/expand-macros.js'
import type { NewRecord, NewRecordFile } from './new-record.js'

/** The ids a create body names, collected leniently so that one lookup answers every existence check. */
export interface RecordReferenceQuery {
  readonly modelId: number | null
  readonly doctype: number | null
  readonly status: string | null
  readonly priority: string | null
  /** Integer ids and logins of users (typist, senders, recipients, diffusion list). */
  readonly userIds: readonly number[]
  readonly userLogins: readonly string[]
  readonly entityIds: readonly number[]
  readonly contactIds: readonly number[]
  readonly folderIds: readonly number[]
  readonly tagIds: readonly number[]
  readonly customFieldIds: readonly number[]
  /**
   * The whole entity tree is needed: to expand indexing keywords (destination / initiator checks), and for
   * a record with a file, whose journal archive goes to the safe of its destination.
   */
  readonly needEntityTree: boolean
  /**
   * Reserve the record's id now (a body with a file): its journal event names the id, and is built before
   * the row is written so that every row of the create goes to the database in one statement.
   */
  readonly reserveResourceId: boolean
}

/** An indexing model as creation checks it. */
export interface IndexingModelFacts {
  readonly id: number
  readonly category: string
  readonly enabled: boolean
  /** Set when the model is a private copy of another (reference: "not public"). */
  readonly master: number | null
  readonly mandatoryFile: boolean
  /** Identifiers of the model's mandatory fields (`doctype`, `subject`, `indexingCustomField_3`, …). */
  readonly mandatoryFields: readonly string[]
  /** The fields the model fills itself (enabled = false), in the order of their ids. */
  readonly disabledFields: readonly DisabledModelField[]
}

/** A custom field as creation checks values against it. */
export interface CustomFieldFacts {
  readonly id: number
  readonly type: string
  readonly values: readonly unknown[]
}

/** What the database says about the ids of a RecordReferenceQuery. */
export interface RecordReferenceFacts {
  readonly model: IndexingModelFacts | null
  readonly doctypeExists: boolean
  readonly statusExists: boolean
  readonly priorityExists: boolean
  /** Existing user ids, and login (lower-case) → id for the logins asked. */
  readonly users: ReadonlySet<number>
  readonly userIdsByLogin: ReadonlyMap<string, number>
  /** Existing entities asked for, by integer id. */
  readonly entities: ReadonlyMap<number, { readonly entityId: string }>
  readonly contacts: ReadonlySet<number>
  /** Folders among those asked that exist and that the actor may see (reference folder visibility). */
  readonly visibleFolders: ReadonlySet<number>
  readonly tags: ReadonlySet<number>
  readonly customFields: ReadonlyMap<number, CustomFieldFacts>
  /** Every entity, when `needEntityTree` was asked; empty otherwise. */
  readonly entityTree: readonly RecordTreeEntity[]
  /** The id reserved for the record when `reserveResourceId` was asked (a sequence value: never reused). */
  readonly reservedResourceId: number | null
}

/** An entity of the tree read with the references: perimeter facts plus what names its safe. */
export interface RecordTreeEntity extends PerimeterEntity {
  /** entities.business_id: the safe's name when the entity is top-level (else its entity_id). */
  readonly businessId: string | null
}

/** What the reference lookup already learnt that the store can reuse instead of reading it again. */
export interface CreatePreparation {
  /** The id reserved by the lookup (null: the database assigns one). */
  readonly resId: number | null
  /** The entity tree read by the lookup (null: not read, the store reads it if it needs it). */
  readonly entityTree: readonly RecordTreeEntity[] | null
  /**
   * The record's file, already written by `stageFile` (absent or null: `create` writes it). Passing it hands
   * it over: `create` stores it with the rows, or removes it when the create fails.
   */
  readonly stagedFile?: StagedFile | null
}

/**
 * A record's file written durably before its row, while the use case looks up the body's references, so
 * that the file's fsyncs and the lookup's round trip overlap. Until it is handed to `create`, whoever holds
 * it must `discard` it.
 */
export interface StagedFile {
  /** The file it holds: `create` uses it only for a record whose file is this very one. */
  readonly file: NewRecordFile
  /** Removes the written file (a refused create); never fails. */
  discard(): Promise<void>
}

/** What the earlier variant names by code rather than by integer id. */
export interface EarlierReferenceQuery {
  readonly category: string
  readonly entityCodes: readonly string[]
  /**
   * The `order` of the priority a numeric `priority` names (the reference's migration numbered the older
   * numeric priorities by that column); null when `priority` is not a number or a numeric string.
   */
  readonly priorityOrder: number | null
}

/** The integer ids behind an EarlierReferenceQuery. */
export interface EarlierReferenceFacts {
  /** The indexing model a record of this category is created with; null when the category has none. */
  readonly modelId: number | null
  /** entity_id → integer id, for the codes that exist. */
  readonly entityIdsByCode: ReadonlyMap<string, number>
  /** The id of the priority whose `order` is `priorityOrder` (the lowest id if several); null when none is. */
  readonly priorityIdByOrder: string | null
}

/** A field an indexing model fills itself (indexing_models_fields row with enabled = false). */
export interface DisabledModelField {
  /** `doctype`, `subject`, `destination`, `indexingCustomField_3`, … */
  readonly identifier: string
  /** default_value as stored (any JSON value); null when there is none. */
  readonly defaultValue: unknown
}

/** Storage side of record creation. */
export interface RecordsRepository {
  lookupReferences(actor: Actor, query: RecordReferenceQuery): Promise<RecordReferenceFacts>
  lookupEarlierReferences(query: EarlierReferenceQuery): Promise<EarlierReferenceFacts>
  /**
   * Writes a record's file ahead of its row (see StagedFile). Optional; resolves null when this file is not
   * written as sent (an office file that takes the record's chrono), and rejects as a write would.
   */
  stageFile?(file: NewRecordFile): Promise<StagedFile | null>
  /**
   * Stores the record atomically: its file (if any) in the document storage, then every row in one
   * transaction (record, lists, chrono counter, history, journal). On failure nothing remains.
   * Returns the new res_id.
   */
  create(actor: Actor, record: NewRecord, preparation?: CreatePreparation): Promise<number>
}
