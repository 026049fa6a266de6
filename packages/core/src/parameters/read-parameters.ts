import type { Actor } from '../actors/actor.js'
import { hasPrivilege } from '../actors/privileges.js'
import type { Parameter, ParameterListResponse, ParameterResponse } from '../api/parameter-schemas.js'
import { fail } from '../errors/domain-error.js'
import type { ParameterRepository } from './ports.js'

/** Parameters anyone may read by id (20.10's `ParameterController::getById`): the visa circuit's rules. */
export const OPEN_PARAMETERS: readonly string[] = ['minimumVisaRole', 'maximumSignRole', 'workflowEndBySignatory']

/** What a caller without admin_parameters gets from the list (20.10 shows it on the summary sheet). */
const LISTED_WITHOUT_PRIVILEGE = 'traffic_record_summary_sheet'

/** Messages 20.10 always lists, empty when the installation has none (the login and home pages read them). */
const ALWAYS_LISTED = ['loginpage_message', 'homepage_message'] as const

/** The value 20.10 adds to a listed parameter: the string if not empty, else the integer, else the date. */
function valueOf(parameter: Parameter): string | number | undefined {
  if (parameter.param_value_string) return parameter.param_value_string
  if (parameter.param_value_int !== null) return parameter.param_value_int
  if (parameter.param_value_date) return parameter.param_value_date
  return undefined
}

/**
 * `GET /rest/parameters`: every parameter with admin_parameters; without it, only
 * `traffic_record_summary_sheet` (200, not 403). Empty login and home messages are added when not stored.
 */
export async function listParameters(repository: ParameterRepository, actor: Actor): Promise<ParameterListResponse> {
  const all = await repository.list()
  const visible = hasPrivilege(actor, 'admin_parameters') ? all : all.filter((p) => p.id === LISTED_WITHOUT_PRIVILEGE)
  const parameters: ParameterListResponse['parameters'] = visible.map((parameter) => {
    const value = valueOf(parameter)
    return value === undefined ? { ...parameter } : { ...parameter, value }
  })
  for (const id of ALWAYS_LISTED) {
    if (!visible.some((p) => p.id === id))
      parameters.push({
        id,
        description: null,
        param_value_string: '',
        param_value_int: null,
        param_value_date: null,
        value: '',
      })
  }
  return { parameters }
}

/**
 * `GET /rest/parameters/{id}`: the privilege is checked before the parameter is looked up (as in 20.10), so a
 * caller without admin_parameters learns nothing of which ids exist.
 */
export async function readParameter(
  repository: ParameterRepository,
  actor: Actor,
  id: string,
): Promise<ParameterResponse> {
  if (!OPEN_PARAMETERS.includes(id) && !hasPrivilege(actor, 'admin_parameters')) fail('SERVICE_FORBIDDEN')
  // Ids are varchar(255) without NUL: anything else cannot be stored, so it is not found.
  const parameter = id.length <= 255 && !id.includes('\u0000') ? await repository.find(id) : null
  if (!parameter) fail('PARAMETER_NOT_FOUND')
  return { parameter }
}
