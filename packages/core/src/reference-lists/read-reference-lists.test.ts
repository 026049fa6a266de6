import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import type { CustomFieldRepository } from './ports.js'
import { listCustomFields } from './read-reference-lists.js'

const actor = { serialId: 1, login: 'bbain' } as unknown as Actor

describe('listCustomFields: values as 20.10 answers a reader', () => {
  it('gives each value as {key, label}, both the value, and a field without values []', async () => {
    const repository: CustomFieldRepository = {
      list: async () => [
        { id: 3, label: 'Nature', type: 'select', mode: 'form', values: ['Courrier', 'Mail'], SQLMode: false },
        { id: 4, label: 'Référence', type: 'string', mode: 'form', values: [], SQLMode: false },
      ],
    }
    expect(await listCustomFields(repository, actor)).toEqual({
      customFields: [
        {
          id: 3,
          label: 'Nature',
          type: 'select',
          mode: 'form',
          values: [
            { key: 'Courrier', label: 'Courrier' },
            { key: 'Mail', label: 'Mail' },
          ],
          SQLMode: false,
        },
        { id: 4, label: 'Référence', type: 'string', mode: 'form', values: [], SQLMode: false },
      ],
    })
  })
})
