import type { Actor } from '../actors/actor.js'
import type { FolderListResponse } from '../api/reference-schemas.js'
import type { FolderRepository, VisibleFolderRow } from './ports.js'

type FolderItem = FolderListResponse['folders'][number]

/**
 * `GET /rest/folders`: the folders the caller may see, as a tree flattened depth first (each folder after its
 * parent, siblings by label). A folder whose parent the caller may not see is shown at level 0, as 20.10 does.
 * Mailroom has no pinned folders: `pinned` is false.
 */
export async function listFolders(repository: FolderRepository, actor: Actor): Promise<FolderListResponse> {
  const rows = await repository.visibleTo(
    actor.id,
    actor.entities.map((entity) => entity.id),
  )
  const ids = new Set(rows.map((row) => row.id))
  const children = new Map<number | null, VisibleFolderRow[]>()
  for (const row of rows) {
    const parent = row.parent_id !== null && ids.has(row.parent_id) ? row.parent_id : null
    children.set(parent, [...(children.get(parent) ?? []), row])
  }
  const folders: FolderItem[] = []
  const seen = new Set<number>()
  const walk = (parent: number | null) => {
    for (const row of children.get(parent) ?? []) {
      if (seen.has(row.id)) continue
      seen.add(row.id)
      folders.push({
        name: row.label,
        id: row.id,
        label: row.label,
        public: row.public,
        user_id: row.user_id,
        parent_id: row.parent_id,
        level: parent === null ? 0 : row.level,
        countResources: row.countResources,
        pinned: false,
        canEdit: row.canEdit,
      })
      walk(row.id)
    }
  }
  walk(null)
  return { folders }
}
