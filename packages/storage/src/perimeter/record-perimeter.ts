import type { RecordPerimeter } from '@mailroom/core'
import type { StorageContext } from '../storage-context.js'

/** Core's perimeter port over the storage's guard, asked outside any transaction. */
export function recordPerimeterOf(context: Pick<StorageContext, 'db' | 'perimeter'>): RecordPerimeter {
  const { db, perimeter } = context
  return {
    allows: (actor, resId) => perimeter.allows(db, actor, resId),
    allowedAmong: (actor, resIds) => perimeter.allowedAmong(db, actor, resIds),
  }
}
