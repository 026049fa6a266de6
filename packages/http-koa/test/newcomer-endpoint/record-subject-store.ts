/*
 * What would go in `packages/storage/src/records/record-subject-store.ts`: the port's one method over kysely.
 */
import type { Mailroom } from '@mailroom/mailroom'
import type { RecordSubjectStore } from './read-record-subject.js'

export function kyselyRecordSubjectStore(db: Mailroom['db']): RecordSubjectStore {
  return {
    async subjectOf(resId) {
      const row = await db.selectFrom('res_letterbox').select('subject').where('res_id', '=', resId).executeTakeFirst()
      return row?.subject ?? null
    },
  }
}
