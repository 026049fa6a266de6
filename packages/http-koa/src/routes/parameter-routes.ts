import {
  type ParameterListResponse,
  ParameterListResponseSchema,
  ParameterPathSchema,
  type ParameterResponse,
  ParameterResponseSchema,
} from '@mailroom/core'
import { referenceReadRoute } from './reference-read-route.js'
import type { RouteDeclaration } from './route-declaration.js'

const workingDays = {
  id: 'workingDays',
  description: 'Si activé (1), les délais de traitement sont calculés en jours ouvrés (Lundi à Vendredi).',
  param_value_string: null,
  param_value_int: 1,
  param_value_date: null,
}

/** GET /rest/parameters and GET /rest/parameters/{id}. */
export const parameterRoutes: readonly RouteDeclaration[] = [
  referenceReadRoute({
    path: '/rest/parameters',
    operationId: 'getParameters',
    summary: 'The parameters',
    description:
      'Every parameter with the privilege admin_parameters; without it, only traffic_record_summary_sheet (200, ' +
      'as 20.10). loginpage_message and homepage_message are always listed, empty when not stored.',
    schema: ParameterListResponseSchema,
    answer: 'The parameters the caller may read',
    example: { parameters: [{ ...workingDays, value: 1 }] } satisfies ParameterListResponse,
    read: (reference, actor) => reference.parameters(actor),
  }),
  referenceReadRoute({
    path: '/rest/parameters/:id',
    operationId: 'getParameter',
    summary: 'A parameter',
    description:
      'Needs admin_parameters, except minimumVisaRole, maximumSignRole and workflowEndBySignatory (anyone). The ' +
      'privilege is checked before the id is looked up, as in 20.10. The capture client reads ' +
      'workingDays.param_value_int (1: delays count working days).',
    request: { path: ParameterPathSchema },
    schema: ParameterResponseSchema,
    answer: 'The parameter',
    example: { parameter: workingDays } satisfies ParameterResponse,
    errors: ['SERVICE_FORBIDDEN', 'PARAMETER_NOT_FOUND'],
    read: (reference, actor, id) => reference.parameter(actor, id),
  }),
]
