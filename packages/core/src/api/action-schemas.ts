import { z } from 'zod'
import { MAX_ACTION_RESOURCES } from '../actions/action-limits.js'
import { BasketListPathSchema } from './basket-schemas.js'

const id = (meaning: string) => z.number().int().min(1).describe(meaning)

/** Path of an action's routes in a basket's list. */
export const BasketActionPathSchema = BasketListPathSchema.extend({ actionId: id('The action (serial id)') }).meta({
  description: 'An action offered in a basket of a group',
})

/** Query of `GET .../actions`. */
export const OfferedActionsQuerySchema = z
  .object({ resId: id('A letter: the actions offered on its page, each with its categories').optional() })
  .meta({ description: 'Without resId: the actions offered in the list' })

const resources = z
  .array(z.union([z.number().int().min(1), z.string().regex(/^\d+$/)]))
  .min(1)
  .max(MAX_ACTION_RESOURCES)
  .describe(`The letters (res_id), each in the basket; at most ${MAX_ACTION_RESOURCES}`)

/** Body of `PUT .../locked`, `.../lock`, `.../unlock` and `POST .../checkCloseWithFieldsAction`. */
export const LetterListBodySchema = z
  .object({ resources })
  .meta({ id: 'LetterList', description: 'Letters of the basket' })

/** Body of `PUT .../locked`, `.../lock`, `.../unlock`. */
export type LetterListBody = z.input<typeof LetterListBodySchema>

/** Body of `PUT .../actions/{actionId}`. */
export const ActionRunBodySchema = z
  .object({
    resources,
    note: z
      .object({
        content: z.string().describe('Written as a note on every letter changed; blank: no note'),
        entities: z.array(z.string()).optional().describe('entity_ids the note is restricted to'),
      })
      .optional(),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'The component’s data: redirectAction `{destination, listInstances: [{item_id, item_type, item_mode}], onlyRedirectDest}`; ' +
          'resMarkAsReadAction `{basketId}`',
      ),
  })
  .meta({
    id: 'ActionRunRequest',
    description: 'The letters to act on, with an optional note and the component’s data',
  })

/** Body of `PUT .../actions/{actionId}`. */
export type ActionRunBody = z.input<typeof ActionRunBodySchema>

/** 200 body of `PUT .../actions/{actionId}` when some letters were not changed. */
export const ActionRunAnswerSchema = z
  .union([
    z.object({ errors: z.array(z.string()).describe('Why each letter left out was not changed') }),
    z.object({ success: z.literal('No resource to process').describe('Every letter is locked by someone else') }),
  ])
  .meta({ id: 'ActionRunAnswer', description: 'Some or all letters were not changed' })

/** Body of `GET .../actions`. */
export const OfferedActionsSchema = z
  .object({
    actions: z.array(
      z.object({
        id: z.number().int(),
        component: z.string().nullable(),
        label: z.string(),
        categories: z.array(z.string()).optional().describe('Only with resId: the categories the action applies to'),
      }),
    ),
  })
  .meta({ id: 'OfferedActions', description: 'The actions offered, the default one first, then by label' })

/** Body of `PUT .../locked`. */
export const LockedLettersSchema = z
  .object({
    countLockedResources: z.number().int().describe('How many of the letters someone else holds'),
    lockers: z.array(z.string()).describe('Who holds them ("Firstname Lastname")'),
    resourcesToProcess: z.array(z.number().int()).describe('The letters the caller may act on'),
  })
  .meta({ id: 'LockedLetters', description: 'Who holds which of the letters' })

/** Body of `POST .../checkCloseWithFieldsAction`. */
export const CloseWithFieldsCheckSchema = z
  .object({
    errors: z.array(z.object({ chrono: z.string().nullable(), fields: z.string() })),
    success: z.array(z.number().int()),
  })
  .meta({ id: 'CloseWithFieldsCheck', description: 'The letters that may close, and those missing required fields' })

/** A user a form offers as a letter's assignee (getRedirect, a department's users), as 20.10 lists them. */
export const ChoosableUserSchema = z.object({
  id: z.number().int(),
  user_id: z.string(),
  firstname: z.string().nullable(),
  lastname: z.string().nullable(),
  labelToDisplay: z.string(),
  descriptionToDisplay: z.string().nullable().describe('The user’s primary entity'),
})

/** Body of `GET .../actions/{actionId}/getRedirect`. */
export const RedirectChoicesSchema = z
  .object({
    entities: z
      .array(
        z.object({
          id: z.string().describe('The entity_id'),
          entity_id: z.string(),
          entity_label: z.string(),
          parent_entity_id: z.string().describe('"" for a root entity'),
          serialId: z.number().int(),
          parent: z.string().describe('The parent’s entity_id, or # at the root'),
          icon: z.string(),
          state: z.object({
            opened: z.boolean(),
            selected: z.literal(true).optional(),
            disabled: z.literal(true).optional(),
          }),
          allowed: z.boolean().describe('The letter may be redirected to this entity'),
          text: z.string(),
        }),
      )
      .describe('Every enabled entity, as a tree'),
    users: z.array(ChoosableUserSchema).describe('The people the letter may be redirected to'),
    keepDestForRedirection: z
      .boolean()
      .describe('Whether the assignee stays by default (parameter keepDestForRedirection)'),
  })
  .meta({ id: 'RedirectChoices', description: 'Where a letter of the basket may be redirected' })
