import type { Actor } from '../actors/actor.js'
import type { Doctype, DoctypeResponse, DoctypeTreeResponse } from '../api/reference-schemas.js'
import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'
import type { DoctypeRepository, DoctypeRow } from './ports.js'

/**
 * A type as 20.10 answers it. Mailroom keeps no retention rules or reminder delays: those columns are answered
 * as a fresh 20.10 type would have them empty (null, and 0 for the delays), so clients find every key.
 */
function doctypeOf(row: DoctypeRow): Omit<Doctype, 'enabled'> {
  return {
    coll_id: '',
    type_id: row.type_id,
    description: row.description,
    doctypes_first_level_id: row.doctypes_first_level_id,
    doctypes_second_level_id: row.doctypes_second_level_id,
    retention_final_disposition: null,
    retention_rule: null,
    action_current_use: null,
    duration_current_use: null,
    process_delay: row.process_delay,
    delay1: 0,
    delay2: 0,
    process_mode: row.process_mode,
  }
}

/** `GET /rest/doctypes`: first levels, then second levels, then types, flat, as jsTree reads them. */
export async function doctypeTree(repository: DoctypeRepository, _actor: Actor): Promise<DoctypeTreeResponse> {
  const { firstLevels, secondLevels, doctypes } = await repository.enabledTree()
  return {
    structure: [
      ...firstLevels.map((level) => ({
        ...level,
        id: `firstlevel_${level.doctypes_first_level_id}`,
        text: level.doctypes_first_level_label,
        parent: '#',
        state: { opened: true },
      })),
      ...secondLevels.map((level) => ({
        ...level,
        id: `secondlevel_${level.doctypes_second_level_id}`,
        text: level.doctypes_second_level_label,
        parent: `firstlevel_${level.doctypes_first_level_id}`,
      })),
      ...doctypes.map((row) => ({
        ...doctypeOf(row),
        enabled: row.enabled,
        id: row.type_id,
        text: row.description,
        parent: `secondlevel_${row.doctypes_second_level_id}`,
        icon: 'fa fa-copy',
      })),
    ],
  }
}

/**
 * `GET /rest/doctypes/types/{id}`: the type (its `process_delay` gives the capture client its limit date), the
 * enabled second levels and the templates (none). An unknown id answers 200 with `"doctype": []` as 20.10
 * does (the client tests its length); an id that is not an integer is a 400, where 20.10 answers 500.
 */
export async function readDoctype(repository: DoctypeRepository, _actor: Actor, id: string): Promise<DoctypeResponse> {
  const typeId = databaseIdOf(id) ?? fail('ROUTE_ID_NOT_INTEGER')
  const [row, tree] = await Promise.all([repository.findDoctype(typeId), repository.enabledTree()])
  return {
    doctype: row ? { ...doctypeOf(row), enabled: row.enabled === 'Y' } : [],
    secondLevel: tree.secondLevels.map((level) => ({
      doctypes_second_level_id: level.doctypes_second_level_id,
      doctypes_second_level_label: level.doctypes_second_level_label,
    })),
    models: [],
  }
}
