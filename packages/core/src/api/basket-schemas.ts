import { z } from 'zod'
import { CriteriaSearchResourceSchema } from './criteria-search-schemas.js'

const serial = (meaning: string) => z.number().int().min(1).describe(meaning)

/** A basket of the home page, in one of the caller's groups (20.10's `HomeController::get`). */
export const HomeBasketSchema = z.object({
  id: z.number().int().describe('Serial id of the basket (the list route takes it)'),
  basket_id: z.string(),
  basket_name: z.string(),
  basket_desc: z.string(),
  color: z.string().describe("The member's colour, else the basket's, else #666666"),
  owner_user_id: z.number().int(),
  redirected: z.boolean().describe('Lent to a colleague (redirectedUser names them)'),
  redirectedUser: z.string().optional(),
  resourceNumber: z.number().int().describe('How many records the basket holds (0 for a clause that cannot be used)'),
})

/** A basket a colleague lent to the caller (`redirected_baskets`), counted with the owner's clause. */
export const AssignedBasketSchema = z.object({
  id: z.number().int().describe('Serial id of the basket'),
  basket_id: z.string(),
  basket_name: z.string(),
  basket_clause: z.string().describe("The basket's clause, as 20.10's home page shows it to the colleague"),
  owner_user_id: z.number().int(),
  group_id: z.number().int().describe("Serial id of the owner's group"),
  oldGroupId: z.string(),
  group_desc: z.string().nullable(),
  userToDisplay: z.string().describe('The owner, "firstname lastname"'),
  resourceNumber: z.number().int(),
  uselessGroupId: z.string(),
  ownerLogin: z.string(),
})

/** Body of `GET /rest/home`. */
export const HomeSchema = z
  .object({
    regroupedBaskets: z.array(
      z.object({
        groupSerialId: z.number().int(),
        groupId: z.string(),
        groupDesc: z.string().nullable(),
        baskets: z.array(HomeBasketSchema),
      }),
    ),
    assignedBaskets: z.array(AssignedBasketSchema),
    homeMessage: z.string(),
    isLinkedToMaarchParapheur: z.boolean(),
  })
  .meta({ id: 'Home', description: "The caller's baskets, group by group, with their counts" })
/** Body of `GET /rest/home`. */
export type Home = z.infer<typeof HomeSchema>
/** A basket of the home page. */
export type HomeBasket = z.infer<typeof HomeBasketSchema>
/** A basket lent to the caller. */
export type AssignedBasket = z.infer<typeof AssignedBasketSchema>

/** Body of `GET /rest/home/lastRessources`: the 5 records the caller last acted on. */
export const LastResourcesSchema = z
  .object({
    lastResources: z.array(
      z.object({
        alt_identifier: z.string().nullable(),
        closing_date: z.string().nullable(),
        creation_date: z.string(),
        priority: z.string().nullable(),
        process_limit_date: z.string().nullable(),
        res_id: z.number().int(),
        subject: z.string().nullable(),
        confidentiality: z.string().nullable(),
        status_icon: z.string().nullable(),
        status_label: z.string().nullable(),
        status_id: z.string(),
        hasDocument: z.boolean(),
        priority_color: z.string().nullable().optional(),
      }),
    ),
  })
  .meta({ id: 'LastResources', description: 'The records the caller last acted on, newest first' })
/** Body of `GET /rest/home/lastRessources`. */
export type LastResources = z.infer<typeof LastResourcesSchema>

/** Path of the basket list routes: the owner, the owner's group and the basket, by serial id. */
export const BasketListPathSchema = z
  .object({
    userId: serial("The basket's owner: the caller, or a colleague who lent it"),
    groupId: serial("Serial id of the owner's group"),
    basketId: serial('Serial id of the basket'),
  })
  .meta({ description: 'The basket addressed' })

const commaList = (meaning: string) => z.string().optional().describe(meaning)

/** Query of `GET /rest/resourcesList/…/baskets/{basketId}` (and, without paging, of its `/filters`). */
export const BasketListQuerySchema = z.object({
  limit: z.string().optional().describe('Records per page (default 10, at most 500)'),
  offset: z.string().optional().describe('Records skipped (default 0)'),
  order: z
    .string()
    .optional()
    .describe(
      'One column and a direction, e.g. `creation_date desc` (default: the basket’s); `alt_identifier` sorts chronos ' +
        'naturally (each run of digits as a number), as 20.10’s order_alphanum',
    ),
  search: z.string().optional().describe('At least 2 characters, in the chrono or the subject; "quoted" for exact'),
  priorities: commaList('Priority ids, comma-separated; empty: records without priority; a leading comma adds them'),
  categories: commaList('Category ids, likewise'),
  entities: commaList('Destination entity codes, likewise'),
  entitiesChildren: commaList('Destination entity codes, each with its sub-entities at every level, likewise'),
  statuses: commaList('Status ids, comma-separated'),
  doctypes: commaList('Document type ids, comma-separated'),
  folders: commaList('Folder ids, comma-separated'),
  delayed: z.string().optional().describe('`true`: only records past their process limit date'),
})

/** One item a list row shows, as the group's `list_display` names it, with its value for the row. */
export const DisplayItemSchema = z
  .object({ value: z.string(), cssClasses: z.array(z.string()), icon: z.string(), displayValue: z.unknown() })
  .loose()

/** One row of a basket's list: a search's row, with the lock and without `inAttachments`. */
export const BasketListRowSchema = CriteriaSearchResourceSchema.omit({
  inAttachments: true,
  closing_date: true,
  integrations: true,
  folders: true,
  display: true,
}).extend({
  closing_date: z.string().nullable().describe('As PostgreSQL prints a timestamp (UTC)'),
  integrations: z.record(z.string(), z.unknown()),
  isLocked: z.boolean().describe('Another user holds the lock'),
  locker: z.string().optional().describe('Who holds it, "firstname lastname"'),
  folders: z.array(z.object({ id: z.number().int(), label: z.string() })),
  display: z.array(DisplayItemSchema),
})

/** Body of `GET /rest/resourcesList/users/{userId}/groups/{groupId}/baskets/{basketId}`. */
export const BasketListSchema = z
  .object({
    resources: z.array(BasketListRowSchema),
    count: z.number().int(),
    basketLabel: z.string(),
    basket_id: z.string(),
    allResources: z.array(z.number().int()).describe('Every record of the list, filters applied, in its order'),
    defaultAction: z.union([
      z.object({ component: z.string(), data: z.unknown() }),
      z.array(z.never()).describe('[] when the page is empty'),
    ]),
    displayFolderTags: z.boolean(),
    templateColumns: z.number().int(),
  })
  .meta({ id: 'BasketList', description: "A page of a basket's records" })
/** Body of the basket list route. */
export type BasketList = z.infer<typeof BasketListSchema>
/** One row of a basket's list. */
export type BasketListRow = z.infer<typeof BasketListRowSchema>
/** One display item of a row. */
export type DisplayItem = z.infer<typeof DisplayItemSchema>

const filterEntry = z.object({
  id: z.union([z.string(), z.number().int()]).nullable(),
  label: z.string(),
  count: z.number().int(),
})
const entityEntry = z.object({ entityId: z.string().nullable(), label: z.string(), count: z.number().int() })

/** Body of `GET …/baskets/{basketId}/filters`: the values of the basket's records, each with its count. */
export const BasketFiltersSchema = z
  .object({
    entities: z.array(entityEntry),
    priorities: z.array(filterEntry),
    categories: z.array(filterEntry),
    statuses: z.array(filterEntry),
    entitiesChildren: z.array(entityEntry),
    doctypes: z.array(filterEntry),
    folders: z.array(filterEntry),
  })
  .meta({ id: 'BasketFilters', description: 'Filter values of a basket, each list only when it has 2 values or more' })
/** Body of the filters route. */
export type BasketFilters = z.infer<typeof BasketFiltersSchema>
/** One filter value with its count. */
export type FilterEntry = z.infer<typeof filterEntry>
/** One entity filter value with its count. */
export type EntityFilterEntry = z.infer<typeof entityEntry>

/** Body of `GET /rest/resources/{resId}/isAllowed`. */
export const IsAllowedSchema = z
  .object({ isAllowed: z.boolean() })
  .meta({ id: 'IsAllowed', description: "Whether the record is in the caller's perimeter" })
/** Body of `GET /rest/resources/{resId}/isAllowed`. */
export type IsAllowed = z.infer<typeof IsAllowedSchema>

/** Path of `GET /rest/resources/{resId}/isAllowed`: any text (a malformed id answers false, as 20.10). */
export const IsAllowedPathSchema = z.object({ resId: z.string().describe('Record identifier') })
