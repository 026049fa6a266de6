/** A record as 20.10's result lists show it (a search's row, a basket's row): the examples of both routes. */
export const RECORD_ROW_EXAMPLE = {
  resId: 21,
  chrono: 'MAARCH/2026A/1',
  barcode: null,
  subject: "Demande d'inscription à la piscine",
  confidentiality: 'N',
  statusLabel: 'Nouveau courrier',
  statusImage: null,
  priorityColor: '#009dc5',
  closing_date: null,
  countAttachments: 0,
  hasDocument: true,
  mailTracking: false,
  integrations: { inShipping: false, inSignatureBook: false },
  retentionFrozen: false,
  binding: null,
  countNotes: 0,
  folders: [],
  display: [
    { value: 'getPriority', cssClasses: ['align_leftData'], icon: 'fa-traffic-light', displayValue: 'Normal' },
    { value: 'getSenders', cssClasses: ['align_leftData'], icon: 'fa-book', displayValue: ['Jean Dupont'] },
  ],
}

/** What both routes' descriptions say of the fields Maarch 20.10's web client renders as HTML. */
export const INERT_HTML_FIELDS =
  "Maarch 20.10's web client renders a row's `chrono`, `barcode`, `subject` and display values as HTML in places and as text in others: " +
  'they come made inert, with a word joiner (U+2060, invisible) after each `<` or `&` that would start markup, so the text reads the same both ways and never as markup. ' +
  'The SDK gives them as written; another client takes out one U+2060 after each `<` and `&`. Searches and filters match the text as written.'
