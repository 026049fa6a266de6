import type { IndexingModelEntities } from '../api/processing-page-schemas.js'
import type { EntityRow } from '../entities/entity.js'

type TreeEntity = IndexingModelEntities['entities'][number]

/**
 * By label as the sample's database sorted them (the C collation: code points, capitals before small letters:
 * "Direction Générale" before "Direction des"), which the recorded answer shows.
 */
const byLabel = (a: EntityRow, b: EntityRow) =>
  a.entity_label < b.entity_label ? -1 : a.entity_label > b.entity_label ? 1 : 0

/**
 * The enabled entities as 20.10's indexing models list them: the top-level ones by label, each followed by its
 * enabled descendants depth first. 20.10 reads each level by label and inserts every child right after its
 * parent, so siblings below the top come out in reverse label order: kept, since the client shows them as given.
 * An entity under a disabled (or missing) parent is not listed.
 */
export function indexingModelEntityTree(rows: readonly EntityRow[]): TreeEntity[] {
  const enabled = rows.filter((row) => row.enabled === 'Y')
  const parentOf = (row: EntityRow) =>
    row.parent_entity_id === null || row.parent_entity_id === '' ? null : row.parent_entity_id
  const children = new Map<string, EntityRow[]>()
  for (const row of enabled) {
    const parent = parentOf(row)
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), row])
  }
  const tree: TreeEntity[] = []
  const seen = new Set<string>()
  const visit = (row: EntityRow, level: number) => {
    // A cycle in the stored tree (an entity its own ancestor) is listed once.
    if (seen.has(row.entity_id)) return
    seen.add(row.entity_id)
    const parent = parentOf(row)
    tree.push({
      id: row.id,
      entity_label: row.entity_label,
      entity_id: row.entity_id,
      ...(parent === null ? {} : { parent_entity_id: parent }),
      level,
    })
    for (const child of [...(children.get(row.entity_id) ?? [])].sort(byLabel).reverse()) visit(child, level + 1)
  }
  for (const top of enabled.filter((row) => parentOf(row) === null).sort(byLabel)) visit(top, 0)
  return tree
}
