/** An indexing model, as stored. */
export interface IndexingModelRow {
  readonly id: number
  readonly label: string
  readonly category: string
  readonly default: boolean
  readonly owner: number | null
  readonly private: boolean
  readonly master: number | null
  readonly enabled: boolean
  readonly mandatory_file: boolean
}

/** A field of an indexing model, as stored. */
export interface IndexingFieldRow {
  readonly identifier: string
  readonly mandatory: boolean
  readonly default_value: unknown
  readonly unit: string | null
  readonly enabled: boolean
}

/** Indexing models, read side. */
export interface IndexingModelRepository {
  /** Enabled models that are public or owned by `userId`, by id. */
  listVisible(userId: number): Promise<IndexingModelRow[]>
  /** One model with its fields (in their stored order), or null. */
  find(id: number): Promise<{ model: IndexingModelRow; fields: IndexingFieldRow[] } | null>
}
