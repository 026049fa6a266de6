import type { EntityRow } from './entity.js'

/** Entities, read side. The tree is small (hundreds of rows), so whole-tree reads are fine. */
export interface EntityRepository {
  findByEntityId(entityId: string): Promise<EntityRow | null>
  findById(id: number): Promise<EntityRow | null>
  listAll(): Promise<EntityRow[]>
}
