import type { DiffusionListDependencies, DiffusionListStore, ListInstanceItem } from '@mailroom/core'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { primaryEntityLabelOf } from '../users/primary-entity-label.js'

/** The ports of core's diffusion list read (`GET /rest/resources/{resId}/listInstance`) over kysely. */
export function diffusionListPorts(context: StorageContext): DiffusionListDependencies {
  return { lists: kyselyDiffusionListStore(context), perimeter: recordPerimeterOf(context) }
}

/**
 * Core's diffusion list port: listinstance rows of difflist_type `entity_id` (not visa or opinion circuits) in
 * 20.10's shape, each item with its login or entity_id and a label to display.
 */
export function kyselyDiffusionListStore(context: Pick<StorageContext, 'db'>): DiffusionListStore {
  const { db } = context
  return {
    async hasEarlierLists(resId) {
      const row = await db
        .selectFrom('listinstance_history_details')
        .select('listinstance_history_details_id')
        .where('res_id', '=', resId)
        .where('difflist_type', '=', 'entity_id')
        .limit(1)
        .executeTakeFirst()
      return row !== undefined
    },

    async diffusionListOf(resId) {
      const rows = await db
        .selectFrom('listinstance as li')
        .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'li.item_id').on('li.item_type', '=', 'user_id'))
        .leftJoin('entities as e', (join) => join.onRef('e.id', '=', 'li.item_id').on('li.item_type', '=', 'entity_id'))
        .select([
          'li.listinstance_id',
          'li.res_id',
          'li.sequence',
          'li.item_id',
          'li.item_type',
          'li.item_mode',
          'li.added_by_user',
          'li.viewed',
          'li.difflist_type',
          'li.process_date',
          'li.process_comment',
          'li.signatory',
          'li.requested_signature',
          'li.delegate',
          'u.user_id as login',
          'u.firstname',
          'u.lastname',
          'e.entity_id',
          'e.entity_label',
          primaryEntityLabelOf('li.item_id').as('primary_entity_label'),
        ])
        .where('li.res_id', '=', resId)
        .where('li.difflist_type', '=', 'entity_id')
        .orderBy('li.listinstance_id')
        .execute()
      return rows.map((row): ListInstanceItem => {
        const isEntity = row.item_type === 'entity_id'
        return {
          listinstance_id: row.listinstance_id,
          res_id: Number(row.res_id),
          sequence: row.sequence,
          item_id: (isEntity ? row.entity_id : row.login) ?? String(row.item_id),
          item_type: isEntity ? 'entity_id' : 'user_id',
          item_mode: row.item_mode,
          added_by_user: row.added_by_user,
          viewed: row.viewed,
          difflist_type: row.difflist_type ?? 'entity_id',
          process_date: row.process_date === null ? null : new Date(row.process_date).toISOString(),
          process_comment: row.process_comment,
          signatory: row.signatory,
          requested_signature: row.requested_signature,
          delegate: row.delegate,
          itemSerialId: row.item_id,
          labelToDisplay: isEntity ? (row.entity_label ?? '') : [row.firstname, row.lastname].filter(Boolean).join(' '),
          descriptionToDisplay: isEntity ? '' : (row.primary_entity_label ?? ''),
        }
      })
    },
  }
}
