import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import type { Parameter } from '../api/parameter-schemas.js'
import type { ParameterRepository } from './ports.js'
import { listParameters, readParameter } from './read-parameters.js'

const parameter = (id: string, values: Partial<Parameter> = {}): Parameter => ({
  id,
  description: null,
  param_value_string: null,
  param_value_int: null,
  param_value_date: null,
  ...values,
})
const stored = [
  parameter('workingDays', { param_value_int: 1 }),
  parameter('traffic_record_summary_sheet', { param_value_string: '' }),
  parameter('minimumVisaRole', { param_value_int: 0 }),
  parameter('thumbnailsSize', { param_value_string: '750x900' }),
]
const repository: ParameterRepository = {
  list: async () => stored,
  find: async (id) => stored.find((p) => p.id === id) ?? null,
}
// The privilege check reads the mode and the groups' privileges only.
const actor = (privileges: string[]) => ({ mode: 'standard', groups: [{ privileges }] }) as unknown as Actor
const admin = actor(['admin_parameters'])
const clerk = actor([])

describe('parameters', () => {
  it('lists every parameter with admin_parameters, each with the value set, and the two messages 20.10 adds', async () => {
    const { parameters } = await listParameters(repository, admin)
    expect(parameters.map((p) => p.id)).toEqual([...stored.map((p) => p.id), 'loginpage_message', 'homepage_message'])
    expect(parameters[0]).toMatchObject({ id: 'workingDays', value: 1 })
    expect(parameters[1]).not.toHaveProperty('value')
    expect(parameters[3]).toMatchObject({ value: '750x900' })
  })

  it('lists only the summary sheet without the privilege (200, not 403)', async () => {
    const { parameters } = await listParameters(repository, clerk)
    expect(parameters.map((p) => p.id)).toEqual([
      'traffic_record_summary_sheet',
      'loginpage_message',
      'homepage_message',
    ])
  })

  it('reads one with the privilege, refuses before looking it up without, except the three open ids', async () => {
    expect((await readParameter(repository, admin, 'workingDays')).parameter.param_value_int).toBe(1)
    await expect(readParameter(repository, admin, 'nothing')).rejects.toMatchObject({ message: 'Parameter not found' })
    await expect(readParameter(repository, clerk, 'workingDays')).rejects.toMatchObject({
      message: 'Service forbidden',
    })
    await expect(readParameter(repository, clerk, 'nothing')).rejects.toMatchObject({ message: 'Service forbidden' })
    expect((await readParameter(repository, clerk, 'minimumVisaRole')).parameter.id).toBe('minimumVisaRole')
    await expect(readParameter(repository, admin, 'x'.repeat(300))).rejects.toMatchObject({
      code: 'PARAMETER_NOT_FOUND',
    })
  })
})
