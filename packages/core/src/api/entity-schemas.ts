import { z } from 'zod'
import { EntityIdSchema, type EntityResponseSchema } from '../entities/entity.js'

/** Path of `GET /rest/entities/{id}`. */
export const EntityPathSchema = z
  .object({
    id: EntityIdSchema.describe(
      'The entity_id (at most 32 characters); an all-digit id that matches no entity_id is read as the integer identifier',
    ),
  })
  .meta({ description: 'Path of GET /rest/entities/{id}' })

/** Body of a successful `GET /rest/entities/{id}`: `{ entity }`. */
export type EntityResponse = z.infer<typeof EntityResponseSchema>
