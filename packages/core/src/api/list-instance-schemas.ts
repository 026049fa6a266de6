import { z } from 'zod'

/** Body of `GET /rest/resources/{resId}/listInstance`. */
export const ListInstanceSchema = z
  .object({
    listInstance: z.array(
      z.object({
        listinstance_id: z.number().int(),
        res_id: z.number().int(),
        sequence: z.number().int(),
        item_id: z.string().describe('A user’s login or an entity’s entity_id'),
        item_type: z.enum(['user_id', 'entity_id']),
        item_mode: z.string().describe('dest, cc, …'),
        added_by_user: z.number().int().nullable(),
        viewed: z.number().int().nullable(),
        difflist_type: z.string(),
        process_date: z.string().nullable(),
        process_comment: z.string().nullable(),
        signatory: z.boolean(),
        requested_signature: z.boolean(),
        delegate: z.number().int().nullable(),
        itemSerialId: z.number().int().describe('The user’s or entity’s id'),
        labelToDisplay: z.string(),
        descriptionToDisplay: z.string(),
      }),
    ),
    hasHistory: z.boolean().describe('Whether the list was replaced before (a redirect keeps the list it replaces)'),
  })
  .meta({ id: 'ListInstance', description: 'The diffusion list of a record' })
