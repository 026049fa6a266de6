/**
 * The `admin_search` configuration of a 20.10 installation as its installer writes it: which facts each
 * result line shows (`display`), the default tab and the number of columns. Mailroom has no administration
 * page for it: every installation answers this one (`GET /rest/search/configuration`).
 */
export const SEARCH_DISPLAY_ITEMS = [
  { value: 'getPriority', cssClasses: ['align_leftData'], icon: 'fa-traffic-light' },
  { value: 'getCreationAndProcessLimitDates', cssClasses: ['align_leftData'], icon: 'fa-calendar' },
  { value: 'getAssignee', cssClasses: ['align_leftData'], icon: 'fa-sitemap' },
  { value: 'getDoctype', cssClasses: ['align_leftData'], icon: 'fa-suitcase' },
  { value: 'getRecipients', cssClasses: ['align_leftData'], icon: 'fa-user' },
  { value: 'getSenders', cssClasses: ['align_leftData'], icon: 'fa-book' },
] as const

export type SearchDisplayItemName = (typeof SEARCH_DISPLAY_ITEMS)[number]['value']

export const SEARCH_CONFIGURATION = {
  listEvent: { defaultTab: 'dashboard' },
  listDisplay: { templateColumns: 6, subInfos: SEARCH_DISPLAY_ITEMS },
} as const

/** Labels of the record categories (20.10's French labels, as its answers carry them). */
export const CATEGORY_LABELS: Readonly<Record<string, string>> = {
  incoming: 'Courrier Arrivée',
  outgoing: 'Courrier Départ',
  internal: 'Courrier Interne',
  ged_doc: 'Document GED',
  registeredMail: 'Courrier AR',
}
