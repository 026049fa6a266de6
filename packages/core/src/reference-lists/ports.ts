import type {
  CustomFieldListResponse,
  PriorityListResponse,
  StatusListResponse,
  TagListResponse,
} from '../api/reference-schemas.js'

/** A list the storage reads whole, already in the answer's item shape and order (tens of rows). */
export interface ReferenceList<T> {
  list(): Promise<T[]>
}

/** Statuses, every row, by label (20.10's order). */
export type StatusRepository = ReferenceList<StatusListResponse['statuses'][number]>
/** Priorities, by their order. */
export type PriorityRepository = ReferenceList<PriorityListResponse['priorities'][number]>
/** Custom fields, by label. */
export type CustomFieldRepository = ReferenceList<CustomFieldListResponse['customFields'][number]>
/** Tags with the number of records carrying each, by label. */
export type TagRepository = ReferenceList<TagListResponse['tags'][number]>
