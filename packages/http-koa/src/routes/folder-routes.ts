import { type FolderListResponse, FolderListResponseSchema } from '@mailroom/core'
import { referenceReadRoute } from './reference-read-route.js'
import type { RouteDeclaration } from './route-declaration.js'

/** GET /rest/folders. */
export const folderRoutes: readonly RouteDeclaration[] = [
  referenceReadRoute({
    path: '/rest/folders',
    operationId: 'getFolders',
    summary: 'The folders the caller may see',
    description:
      'Folders the caller owns or that are shared with one of their entities (or with ALL_ENTITIES), each after its parent; countResources counts every record filed, canEdit says whether the caller may change the folder.',
    schema: FolderListResponseSchema,
    answer: 'The folders, as a tree',
    example: {
      folders: [
        {
          name: 'Marchés publics',
          id: 2,
          label: 'Marchés publics',
          public: true,
          user_id: 1,
          parent_id: null,
          level: 0,
          countResources: 0,
          pinned: false,
          canEdit: false,
        },
      ],
    } satisfies FolderListResponse,
    read: (reference, actor) => reference.folders(actor),
  }),
]
