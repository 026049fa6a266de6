import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import { isDomainError } from '../errors/domain-error.js'
import type { ProcessingPageDependencies } from './processing-page-use-cases.js'
import { readDestinationChanging } from './processing-page-use-cases.js'

/*
 * isDestinationChanging over stand-in ports: what the answer depends on (the user's departments, the letter's), and
 * the order of the checks (the letter's perimeter before the user, so nothing is asked of a letter outside it).
 */

const actor: Actor = {
  id: 3,
  login: 'bbain',
  firstname: null,
  lastname: null,
  email: null,
  mode: 'standard',
  entities: [],
  groups: [],
}

function deps(destination: string | null, asked: string[]): ProcessingPageDependencies {
  return {
    perimeter: { allows: async (_actor: Actor, resId: number) => resId === 10 },
    processingPage: {
      userEntityCodes: async (userId: number) => {
        asked.push(`user ${userId}`)
        return userId === 4 ? ['PJS', 'DGS'] : userId === 5 ? [] : null
      },
      recordDestination: async (resId: number) => {
        asked.push(`letter ${resId}`)
        return destination
      },
    },
  } as unknown as ProcessingPageDependencies
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (e: unknown) => (isDomainError(e) ? e.code : e),
  )

describe('whether redirecting a letter to a user changes its department', () => {
  it("is false only for a member of the letter's department; a letter without one always changes", async () => {
    const answers = await Promise.all([
      readDestinationChanging(deps('DGS', []), actor, '10', '4'),
      readDestinationChanging(deps('PE', []), actor, '10', '4'),
      readDestinationChanging(deps('PJS', []), actor, '10', '5'),
      readDestinationChanging(deps(null, []), actor, '10', '4'),
    ])
    expect(answers.map((a) => a.isDestinationChanging)).toEqual([false, true, true, true])
  })

  it('asks nothing of the user nor the letter outside the perimeter; then refuses a user that is none', async () => {
    const asked: string[] = []
    expect(await refusal(readDestinationChanging(deps('PJS', asked), actor, '11', '4'))).toBe('OUT_OF_PERIMETER')
    expect(asked).toEqual([])
    for (const userId of ['6', 'x', undefined, '2147483648'])
      expect(await refusal(readDestinationChanging(deps('PJS', asked), actor, '10', userId))).toBe(
        'DESTINATION_USER_NOT_FOUND',
      )
    expect(asked).toEqual(['user 6'])
  })
})
