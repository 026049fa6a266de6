import {
  type CustomFieldListResponse,
  CustomFieldListResponseSchema,
  type PriorityListResponse,
  PriorityListResponseSchema,
  type StatusListResponse,
  StatusListResponseSchema,
  type TagListResponse,
  TagListResponseSchema,
} from '@mailroom/core'
import { referenceReadRoute } from './reference-read-route.js'
import type { RouteDeclaration } from './route-declaration.js'

/** GET /rest/statuses, /rest/priorities, /rest/customFields and /rest/tags: lists any user reads whole. */
export const referenceListRoutes: readonly RouteDeclaration[] = [
  referenceReadRoute({
    path: '/rest/statuses',
    operationId: 'getStatuses',
    summary: 'The statuses',
    description: 'Every status, by label. POST /rest/search names them by identifier.',
    schema: StatusListResponseSchema,
    answer: 'The statuses',
    example: {
      statuses: [
        {
          identifier: 1,
          id: 'COU',
          label_status: 'En cours',
          is_system: 'N',
          img_filename: 'fm-letter-status-inprogress',
          maarch_module: 'apps',
          can_be_searched: 'Y',
          can_be_modified: 'Y',
        },
      ],
    } satisfies StatusListResponse,
    read: (reference, actor) => reference.statuses(actor),
  }),
  referenceReadRoute({
    path: '/rest/priorities',
    operationId: 'getPriorities',
    summary: 'The priorities',
    description: 'Every priority, in its order.',
    schema: PriorityListResponseSchema,
    answer: 'The priorities',
    example: {
      priorities: [{ id: 'poiuytre1357nbvc', label: 'Normal', color: '#009dc5', delays: 30, order: 1 }],
    } satisfies PriorityListResponse,
    read: (reference, actor) => reference.priorities(actor),
  }),
  referenceReadRoute({
    path: '/rest/customFields',
    operationId: 'getCustomFields',
    summary: 'The custom fields',
    description: 'Every custom field records may fill, by label (SQLMode is always false: Mailroom lists values).',
    schema: CustomFieldListResponseSchema,
    answer: 'The custom fields',
    example: {
      customFields: [
        {
          id: 3,
          label: 'Nature',
          type: 'select',
          mode: 'form',
          values: [
            { key: 'Courrier', label: 'Courrier' },
            { key: 'Fax', label: 'Fax' },
          ],
          SQLMode: false,
        },
      ],
    } satisfies CustomFieldListResponse,
    read: (reference, actor) => reference.customFields(actor),
  }),
  referenceReadRoute({
    path: '/rest/tags',
    operationId: 'getTags',
    summary: 'The tags',
    description: 'Every tag by label, with the number of records carrying it.',
    schema: TagListResponseSchema,
    answer: 'The tags',
    example: {
      tags: [
        {
          id: 2,
          label: 'INNOVATION',
          description: null,
          links: [],
          usage: null,
          parentId: null,
          creationDate: null,
          countResources: 0,
        },
      ],
    } satisfies TagListResponse,
    read: (reference, actor) => reference.tags(actor),
  }),
]
