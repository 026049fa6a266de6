import type { ContentFile } from './content-read-ports.js'
import type { ContentServices } from './content-services.js'
import { createNewVersion, type NewVersionDependencies } from './create-version.js'
import { type ContentReadDependencies, createContentReads } from './read-content.js'

/** What the content use cases need: the reads' ports and settings, and the new version's. */
export interface ContentDependencies<F extends ContentFile> {
  readonly reads: ContentReadDependencies<F>
  readonly versions: NewVersionDependencies
}

/** The content use cases (content, originalContent, content/{version}, a new version) over their ports. */
export function createContentUseCases<F extends ContentFile>(deps: ContentDependencies<F>): ContentServices {
  const reads = createContentReads(deps.reads)
  return {
    readContent: reads.readContent,
    readOriginalContent: reads.readOriginalContent,
    readVersionContent: reads.readVersionContent,
    createVersion: (actor, resId, body, meta) => createNewVersion(deps.versions, actor, resId, body, meta),
  }
}
