import type { Actor, FacetName, FacetRow, SearchCriteria } from '@mailroom/core'
import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { selectionCondition } from './compile-criteria.js'

/** Folders whose names the caller may see: public ones, their own, and those shared with one of their entities. */
function visibleFolders(actor: Actor): RawBuilder<SqlBool> {
  const entities = actor.entities.map((entity) => entity.id)
  return sql<SqlBool>`(f.public or f.user_id = ${sql.val(actor.id)}
    or exists (select 1 from entities_folders ef where ef.folder_id = f.id
      and (ef.keyword = 'ALL_ENTITIES' or ef.entity_id = any(${sql.val(entities)}::int[]))))`
}

/** The name of the matches the facets count (a CTE of the search's statement, with the facet columns and res_id). */
export const MATCHES = 'matched'

/**
 * The facets of an answer (20.10's `filters`) as rows (facet, id, label, count): for each facet, the values among
 * the matches and how many records hold each, counted with the other facets' selections applied; labels joined
 * in. A select over the search's matches, read once for the listing and the facets alike.
 */
export function facetRows(actor: Actor, criteria: SearchCriteria): RawBuilder<FacetRow> {
  const others = (facet: FacetName) => selectionCondition(criteria.selection, facet)
  // Each facet reads the matches narrowed by the other facets' choice, in a sub-select named `m`, so the
  // selection's bare column names never meet the joined tables' columns.
  const narrowed = (facet: FacetName) => sql`(select * from ${sql.table(MATCHES)} where ${others(facet)}) m`
  return sql<FacetRow>`select 'priorities' as facet, m.priority as id, p.label, count(*)::int as count
      from ${narrowed('priorities')} left join priorities p on p.id = m.priority group by m.priority, p.label
    union all select 'categories', m.category_id, null, count(*)::int
      from ${narrowed('categories')} group by m.category_id
    union all select 'statuses', m.status, s.label_status, count(*)::int
      from ${narrowed('statuses')} left join status s on s.id = m.status group by m.status, s.label_status
    union all select 'doctypes', m.type_id::text, d.description, count(*)::int
      from ${narrowed('doctypes')} left join doctypes d on d.type_id = m.type_id group by m.type_id, d.description
    union all select 'entities', m.destination, e.entity_label, count(*)::int
      from ${narrowed('entities')} left join entities e on e.entity_id = m.destination
      group by m.destination, e.entity_label
    union all select 'folders', f.id::text, f.label, count(*)::int
      from ${narrowed('folders')} join resources_folders rf on rf.res_id = m.res_id join folders f on f.id = rf.folder_id
      where ${visibleFolders(actor)} group by f.id, f.label`
}
