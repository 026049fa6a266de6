import type { TestServer } from '@mailroom/testing'

/** The test server's database. */
type Db = TestServer['mailroom']['db']

/** The demo's serial ids the journey's addresses carry. */
export interface JourneyIds {
  /** AGENT's serial id (bbain's group). */
  readonly agentGroup: number
  /** MyBasket's serial id ("Courriers à traiter"). */
  readonly myBasket: number
  /** CopyMailBasket's serial id ("Courriers en copie"), added here. */
  readonly copyBasket: number
}

/**
 * The publisher's sample gives AGENT "Courriers en copie" (CopyMailBasket): the letters where I am in copy, not
 * marked as read, with "Marquer comme lu" (action 114, resMarkAsReadAction) in its list and on the letter's page.
 * The demo organisation leaves it out; the journey's copy variant needs it, so it is added as 20.10 writes it
 * (the basket, its group and the action; migration 0026 gives the group's members their preferences, as 20.10 does).
 */
export async function addCopyBasket(db: Db): Promise<JourneyIds> {
  const { id: copyBasket } = await db
    .insertInto('baskets')
    .values({
      basket_id: 'CopyMailBasket',
      basket_name: 'Courriers en copie',
      basket_desc: 'Courriers en copie non lus',
      basket_clause:
        "(res_id in (select res_id from listinstance WHERE item_type = 'user_id' and item_id = @user_id and item_mode = 'cc')) " +
        "and status not in ('DEL', 'END', 'SSUITE') " +
        'and res_id not in (select res_id from res_mark_as_read WHERE user_id = @user_id)',
      basket_order: 50,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const myList = await db
    .selectFrom('groupbasket')
    .select(['list_display', 'list_event', 'list_event_data'])
    .where('group_id', '=', 'AGENT')
    .where('basket_id', '=', 'MyBasket')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('groupbasket')
    .values({
      group_id: 'AGENT',
      basket_id: 'CopyMailBasket',
      list_display: JSON.stringify(myList.list_display),
      list_event: myList.list_event,
      list_event_data: myList.list_event_data === null ? null : JSON.stringify(myList.list_event_data),
    })
    .execute()
  await db
    .insertInto('actions_groupbaskets')
    .values({ id_action: 114, group_id: 'AGENT', basket_id: 'CopyMailBasket', default_action_list: 'Y' })
    .execute()
  const agent = await db.selectFrom('usergroups').select('id').where('group_id', '=', 'AGENT').executeTakeFirstOrThrow()
  const myBasket = await db
    .selectFrom('baskets')
    .select('id')
    .where('basket_id', '=', 'MyBasket')
    .executeTakeFirstOrThrow()
  return { agentGroup: agent.id, myBasket: myBasket.id, copyBasket }
}

/**
 * The publisher's sample gives "Courrier arrivée" (model 1) its fields; the demo organisation leaves them out, and
 * 20.10's `GET /rest/resources/{resId}` shows only the fields of the letter's model: without them the processing
 * page's header has no subject. Added after the letters are registered (they would make the fields mandatory).
 */
export async function addArrivalModelFields(db: Db): Promise<void> {
  const units: Record<string, string> = {
    doctype: 'mail',
    priority: 'mail',
    documentDate: 'mail',
    arrivalDate: 'mail',
    subject: 'mail',
    senders: 'contact',
    destination: 'process',
    processLimitDate: 'process',
  }
  await db
    .insertInto('indexing_models_fields')
    .values(Object.entries(units).map(([identifier, unit]) => ({ model_id: 1, identifier, unit })))
    .execute()
}

/** The Petite Enfance clerk the journey redirects a letter to, and what reads her basket. */
export interface PetiteEnfanceClerk {
  /** Her serial id. */
  readonly userId: number
  /** `login:password`, for the API's Basic authentication. */
  readonly auth: string
}

/**
 * The publisher's sample gives every department a diffusion list template whose assignee (`dest`) is one of its
 * clerks: what 20.10's redirect dialog proposes for a department (`GET /rest/listTemplates/entities/{id}`). The
 * demo organisation (runtime contract) has no clerk in Petite Enfance and no templates; the journey's redirect
 * needs both, so they are added as the sample has them, through the organisation's administration as an operator
 * would (her basket preferences come with her): ssaporta, AGENT in PE, assignee of PE's template, PJS in copy.
 */
export async function addPetiteEnfanceClerk(mailroom: TestServer['mailroom']): Promise<PetiteEnfanceClerk> {
  const password = 'petite-enfance-2026'
  const admin = mailroom.organisation!
  const clerk = await admin.addUser({
    login: 'ssaporta',
    firstname: 'Sabrina',
    lastname: 'SAPORTA',
    groups: ['AGENT'],
    entities: [{ id: 'PE', primary: true }],
    password,
  })
  await admin.apply({
    version: 1,
    listTemplates: [
      {
        id: 1,
        title: 'Petite Enfance',
        type: 'diffusionList',
        entity: 'PE',
        members: [
          { type: 'user', id: 'ssaporta', mode: 'dest' },
          { type: 'entity', id: 'PJS', mode: 'cc' },
        ],
      },
    ],
  })
  return { userId: clerk.id, auth: `ssaporta:${password}` }
}

/** A colleague of bbain in her department (PJS), for the redirect to a person: the demo has none. */
export async function addYouthServiceColleague(
  mailroom: TestServer['mailroom'],
): Promise<{ userId: number; auth: string }> {
  const password = 'jeunesse-et-sports-2026'
  const colleague = await mailroom.organisation!.addUser({
    login: 'jjamet',
    firstname: 'Jonas',
    lastname: 'JAMET',
    groups: ['AGENT'],
    entities: [{ id: 'PJS', primary: true }],
    password,
  })
  return { userId: colleague.id, auth: `jjamet:${password}` }
}
