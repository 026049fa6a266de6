/** A folder the caller may see, with what the list shows of it. */
export interface VisibleFolderRow {
  readonly id: number
  readonly label: string
  readonly public: boolean
  readonly user_id: number
  readonly parent_id: number | null
  readonly level: number
  /** Records filed in it (all of them, as 20.10 counts). */
  readonly countResources: number
  /** The caller owns it, or it is shared for edition with one of their entities or with ALL_ENTITIES. */
  readonly canEdit: boolean
}

/** Folders, read side. */
export interface FolderRepository {
  /**
   * Folders the user owns, or shared with one of `entitySerialIds` or with the keyword ALL_ENTITIES
   * (20.10's `getScopeFolders`), by label.
   */
  visibleTo(userId: number, entitySerialIds: readonly number[]): Promise<VisibleFolderRow[]>
}
