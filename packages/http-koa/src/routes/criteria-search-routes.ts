import {
  type CriteriaSearchBody,
  CriteriaSearchBodySchema,
  CriteriaSearchQuerySchema,
  type CriteriaSearchResponse,
  CriteriaSearchResponseSchema,
  type SearchConfigurationResponse,
  SearchConfigurationResponseSchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { INERT_HTML_FIELDS, RECORD_ROW_EXAMPLE } from './record-row-example.js'
import { json, type RouteDeclaration } from './route-declaration.js'

const EXAMPLE_ANSWER = {
  resources: [{ ...RECORD_ROW_EXAMPLE, inAttachments: false }],
  count: 1,
  allResources: [21],
  defaultTab: 'dashboard',
  displayFolderTags: false,
  templateColumns: 6,
  filters: {
    priorities: { values: [{ id: 'poiuytre1357nbvc', label: 'Normal', count: 1, selected: false }], expand: false },
    categories: { values: [{ id: 'incoming', label: 'Courrier Arrivée', count: 1, selected: false }], expand: false },
    statuses: { values: [{ id: 'NEW', label: 'Nouveau courrier', count: 1, selected: false }], expand: false },
    doctypes: { values: [{ id: 101, label: 'Abonnements', count: 1, selected: false }], expand: false },
    entities: { values: [{ id: 'COU', label: 'Service Courrier', count: 1, selected: false }], expand: false },
    folders: { values: [], expand: false },
  },
} satisfies CriteriaSearchResponse

/** POST /rest/search: Maarch 20.10's structured search. */
export const criteriaSearchRoute: RouteDeclaration = {
  method: 'post',
  path: '/rest/search',
  operationId: 'searchByCriteria',
  tag: 'search',
  summary: 'Search mail records by criteria',
  description:
    'Maarch 20.10\'s structured search: an object of criteria, each {"values": ...}, all of which must match, within the caller ' +
    'perimeter and among statuses that can be searched. Values are bound as parameters, never written into SQL. An unknown ' +
    'criterion, or values of the wrong type, answer 400 naming the criterion (20.10 ignores them and answers every record). ' +
    INERT_HTML_FIELDS,
  security: 'user',
  request: {
    query: CriteriaSearchQuerySchema,
    body: {
      schema: CriteriaSearchBodySchema,
      examples: {
        chrono: { summary: 'By chrono (a substring, as 20.10)', value: { chrono: { values: 'MAARCH/2026A/1' } } },
        quick: { summary: 'Quick search', value: { meta: { values: 'piscine' } } },
        combined: {
          summary: 'Status and category',
          value: { status: { values: [1] }, category: { values: ['incoming'] } } satisfies CriteriaSearchBody,
        },
      },
    },
  },
  responses: {
    '200': {
      description: 'The page of records found, every match id and the facets',
      content: json(CriteriaSearchResponseSchema, EXAMPLE_ANSWER),
    },
  },
  errors: [
    'CRITERIA_SEARCH_BODY_INVALID',
    'CRITERIA_SEARCH_CRITERION_UNKNOWN',
    'CRITERIA_SEARCH_CUSTOM_FIELD_UNKNOWN',
    'CRITERIA_SEARCH_CRITERION_NOT_OBJECT',
    'CRITERIA_SEARCH_VALUES_INVALID',
    'CRITERIA_SEARCH_QUERY_INVALID',
    'SEARCH_REQUEST_INVALID',
  ],
  serve:
    ({ services }) =>
    async (ctx) => {
      ctx.body = await services.criteriaSearch.search(actorOf(ctx), ctx.state.body, ctx.query)
    },
}

/** GET /rest/search/configuration: what each result line shows. */
export const searchConfigurationRoute: RouteDeclaration = {
  method: 'get',
  path: '/rest/search/configuration',
  operationId: 'getSearchConfiguration',
  tag: 'search',
  summary: 'Read the search result configuration',
  errors: [],
  description:
    "20.10's admin_search configuration: the facts each result line shows (the `display` items of POST /rest/search).",
  security: 'user',
  responses: {
    '200': {
      description: 'The configuration',
      content: json(SearchConfigurationResponseSchema, {
        configuration: {
          listEvent: { defaultTab: 'dashboard' },
          listDisplay: {
            templateColumns: 6,
            subInfos: [{ value: 'getPriority', cssClasses: ['align_leftData'], icon: 'fa-traffic-light' }],
          },
        },
      } satisfies SearchConfigurationResponse),
    },
  },
  serve:
    ({ services }) =>
    async (ctx) => {
      ctx.body = await services.criteriaSearch.configuration(actorOf(ctx))
    },
}

/** The routes of the structured search. */
export const criteriaSearchRoutes: readonly RouteDeclaration[] = [criteriaSearchRoute, searchConfigurationRoute]
