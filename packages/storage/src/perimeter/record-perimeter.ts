import type { RecordPerimeter } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import type { PerimeterGuard } from './perimeter-guard.js'

/** Core's perimeter port over the storage's guard, asked outside any transaction. */
export function recordPerimeterOf(context: {
  readonly db: Kysely<Database>
  readonly perimeter: PerimeterGuard
}): RecordPerimeter {
  const { db, perimeter } = context
  return {
    allows: (actor, resId) => perimeter.allows(db, actor, resId),
    allowedAmong: (actor, resIds) => perimeter.allowedAmong(db, actor, resIds),
  }
}
