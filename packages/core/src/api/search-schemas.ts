import { z } from 'zod'
import { searchRequestBodySchema } from '../search/search-request.js'
import { FILE_CONTENT_KEY } from '../search/search-result.js'

/** Body of `POST /rest/res/list` (the search capability's schema, registered under a component name). */
export const SearchBodySchema = searchRequestBodySchema.meta({
  id: 'SearchRequest',
  description: 'A search: select and clause over res_view_letterbox, limited to the caller perimeter',
})

/** Body of `POST /rest/res/list`. */
export type SearchBody = z.input<typeof SearchBodySchema>

/** One record of a search answer: exactly the selected columns, plus the file when withFile is true. */
export const SearchRecordSchema = z.record(z.string(), z.unknown()).meta({
  id: 'SearchRecord',
  description: `The columns named in select (timestamps as ISO 8601 UTC strings), plus ${FILE_CONTENT_KEY} (base64) when withFile is true`,
})

/** Body of a successful `POST /rest/res/list`. */
export const SearchResponseSchema = z
  .object({
    resources: z.array(SearchRecordSchema).describe('One object per record'),
    count: z.number().int().min(0).describe('Number of records returned'),
  })
  .meta({ id: 'SearchResponse', description: 'The records found' })

/** Body of a successful `POST /rest/res/list`. */
export type SearchResponse = z.infer<typeof SearchResponseSchema>
