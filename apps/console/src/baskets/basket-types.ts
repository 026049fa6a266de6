import type { MailroomClient } from '@mailroom/sdk'

// The answers' types as the SDK's methods give them (the console depends on the SDK alone).

/** Body of GET /rest/home. */
export type Home = Awaited<ReturnType<MailroomClient['getHome']>>
/** A page of a basket's list. */
export type BasketList = Awaited<ReturnType<MailroomClient['getBasketList']>>
/** One row of a basket's list. */
export type BasketRow = BasketList['resources'][number]
/** One display item of a row (the group's list_display). */
export type DisplayItem = BasketRow['display'][number]
/** An action offered on a letter's page. */
export type OfferedAction = Awaited<ReturnType<MailroomClient['listBasketActions']>>['actions'][number]
