import { z } from 'zod'
import { MAX_LINKED_RESOURCES } from '../links/link-limits.js'

/** Body of `POST /rest/resources/{resId}/linkedResources`. */
export const LinkResourcesBodySchema = z
  .object({
    linkedResources: z
      .array(z.number().int().min(1))
      .min(1)
      .max(MAX_LINKED_RESOURCES)
      .describe('Records to link with the one addressed (each in the caller’s perimeter, not the record itself)'),
  })
  .meta({ id: 'LinkResourcesRequest', description: 'Records to link, both ways' })

/** Body of `POST /rest/resources/{resId}/linkedResources`. */
export type LinkResourcesBody = z.input<typeof LinkResourcesBodySchema>

/** Body of `GET /rest/resources/{resId}/linkedResources`. */
export const LinkedResourcesSchema = z
  .object({
    linkedResources: z.array(
      z.object({
        resId: z.number().int(),
        subject: z.string().nullable(),
        documentDate: z.string().nullable().describe('YYYY-MM-DD HH:MM:SS'),
        status: z.string().nullable(),
        statusLabel: z.string().optional(),
        statusImage: z.string().nullable().optional(),
        destUser: z.number().int().nullable(),
        destUserLabel: z.string().optional().describe('Only when destUser is set'),
        destination: z.string().nullable(),
        destinationLabel: z.string().nullable().optional().describe('Only when destination is set: its short label'),
        chrono: z.string().nullable(),
        categoryId: z.string(),
        filename: z.string().nullable(),
        format: z.string().nullable(),
        confidentiality: z.boolean(),
        hasDocument: z.boolean(),
        canConvert: z.boolean(),
        senders: z.array(z.string()),
        recipients: z.array(z.string()),
        visaCircuit: z.array(z.object({ item_id: z.number().int(), item_mode: z.string(), userLabel: z.string() })),
      }),
    ),
  })
  .meta({ id: 'LinkedResources', description: 'The linked records the caller may see (others are left out)' })

/** Path of `DELETE /rest/resources/{resId}/linkedResources/{id}`. */
export const UnlinkPathSchema = z
  .object({
    resId: z.number().int().min(1).describe('Record identifier'),
    id: z.number().int().min(1).describe('The linked record to unlink'),
  })
  .meta({ description: 'The two records of the link' })
