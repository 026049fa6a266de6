/**
 * A clerk's day of docs/user-guide.md ("A clerk's day with the SDK"), as code: every `#region` below is one ```ts
 * block of that section, character for character (clerks-day.test.ts checks it and runs this function against a
 * real server with the demo data).
 */
import { createClient } from '../client.js'

/** Runs the day for bbain on a server with the demo data; returns what each step produced. */
export async function clerksDay(baseUrl: string) {
  // #region home
  const bbain = createClient({ baseUrl, auth: { login: 'bbain', password: 'maarch' } })
  const home = await bbain.getHome()
  const agent = home.regroupedBaskets.find((group) => group.groupId === 'AGENT')!
  const myBasket = agent.baskets.find((basket) => basket.basket_id === 'MyBasket')!
  const basket = { userId: myBasket.owner_user_id, groupId: agent.groupSerialId, basketId: myBasket.id }
  // #endregion

  // A letter for her, filed as a capture client files it (not shown in the guide: see "Register a letter").
  const capture = createClient({ baseUrl, auth: { login: 'cchaplin', password: 'maarch' } })
  const filed = await capture.createRecord({
    modelId: 1,
    status: 'NEW',
    subject: 'Demande de rendez-vous',
    destination: 6,
    diffusionList: [{ id: basket.userId, type: 'user', mode: 'dest' }],
    format: 'txt',
    encodedFile: 'Qm9uam91cg==',
  })

  // #region list
  const list = await bbain.getBasketList(basket, { limit: 10, order: 'creation_date desc' })
  const resId = list.resources[0]!.resId // her newest letter
  // #endregion

  // #region open
  const locked = await bbain.lockedLetters(basket, { resources: [resId] }) // does a colleague hold it?
  await bbain.lockLetters(basket, { resources: [resId] }) // for a minute: call again while it stays open
  const { actions } = await bbain.listBasketActions(basket, { resId })
  // #endregion

  // #region act
  const treat = actions.find((action) => action.label === 'Traiter courrier')!
  const answer = await bbain.runBasketAction(basket, treat.id, {
    resources: [resId],
    note: { content: 'Rappelée, rendez-vous le 4', entities: [] },
  }) // null: every letter took it; else { errors: [...] }
  await bbain.unlockLetters(basket, { resources: [resId] })
  // #endregion

  return { filed: filed.resId, count: list.count, resId, locked, actions, answer }
}
