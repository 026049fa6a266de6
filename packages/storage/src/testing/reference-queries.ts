import type { RecordReferenceQuery } from '@mailroom/core'

/** A create body's reference query that names nothing: tests spread it and set what they ask. */
export const NO_REFERENCES: RecordReferenceQuery = {
  modelId: null,
  doctype: null,
  status: null,
  priority: null,
  userIds: [],
  userLogins: [],
  entityIds: [],
  contactIds: [],
  folderIds: [],
  tagIds: [],
  customFieldIds: [],
  needEntityTree: false,
  reserveResourceId: false,
}
