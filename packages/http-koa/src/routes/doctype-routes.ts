import {
  type DoctypeResponse,
  DoctypeResponseSchema,
  type DoctypeTreeResponse,
  DoctypeTreeResponseSchema,
  IntegerIdPathSchema,
} from '@mailroom/core'
import { referenceReadRoute } from './reference-read-route.js'
import type { RouteDeclaration } from './route-declaration.js'

const doctype = {
  coll_id: '',
  type_id: 101,
  description: 'Abonnements – documentation – archives',
  doctypes_first_level_id: 1,
  doctypes_second_level_id: 1,
  retention_final_disposition: null,
  retention_rule: null,
  action_current_use: null,
  duration_current_use: null,
  process_delay: 30,
  delay1: 0,
  delay2: 0,
  process_mode: 'NORMAL',
}

/** GET /rest/doctypes and GET /rest/doctypes/types/{id}. */
export const doctypeRoutes: readonly RouteDeclaration[] = [
  referenceReadRoute({
    path: '/rest/doctypes',
    operationId: 'getDoctypeTree',
    summary: 'The document-type tree',
    description: 'Enabled first levels, second levels and document types, flat, as jsTree reads them (20.10).',
    schema: DoctypeTreeResponseSchema,
    answer: 'The tree',
    example: {
      structure: [
        {
          doctypes_first_level_id: 1,
          doctypes_first_level_label: 'COURRIERS',
          css_style: '#000000',
          enabled: 'Y',
          id: 'firstlevel_1',
          text: 'COURRIERS',
          parent: '#',
          state: { opened: true },
        },
        { ...doctype, enabled: 'Y', id: 101, text: doctype.description, parent: 'secondlevel_1', icon: 'fa fa-copy' },
      ],
    } satisfies DoctypeTreeResponse,
    read: (reference, actor) => reference.doctypeTree(actor),
  }),
  referenceReadRoute({
    path: '/rest/doctypes/types/:id',
    operationId: 'getDoctype',
    summary: 'A document type',
    description:
      "The type (its process_delay, in days, gives a record's process limit date), the enabled second levels and " +
      'the templates (none in Mailroom). An unknown id answers 200 with "doctype": [] as 20.10 does; an id that is ' +
      'not an integer answers 400 (500 in 20.10).',
    request: { path: IntegerIdPathSchema },
    schema: DoctypeResponseSchema,
    answer: 'The type, or [] when unknown',
    example: {
      doctype: { ...doctype, enabled: true },
      secondLevel: [{ doctypes_second_level_id: 1, doctypes_second_level_label: '01. Correspondances' }],
      models: [],
    } satisfies DoctypeResponse,
    errors: ['ROUTE_ID_NOT_INTEGER'],
    read: (reference, actor, id) => reference.doctype(actor, id),
  }),
]
