/**
 * The action components Maarch 20.10 knows (`ActionMethodController::COMPONENTS_ACTIONS`): the name an action's
 * `component` column holds, as its client and installations spell it.
 */
export const MAARCH_ACTION_COMPONENTS = [
  'confirmAction',
  'closeMailAction',
  'closeMailWithAttachmentsOrNotesAction',
  'redirectAction',
  'closeAndIndexAction',
  'updateDepartureDateAction',
  'enabledBasketPersistenceAction',
  'disabledBasketPersistenceAction',
  'resMarkAsReadAction',
  'sendExternalSignatoryBookAction',
  'sendExternalNoteBookAction',
  'createAcknowledgementReceiptsAction',
  'updateAcknowledgementSendDateAction',
  'sendShippingAction',
  'sendSignatureBookAction',
  'continueVisaCircuitAction',
  'redirectInitiatorEntityAction',
  'rejectVisaBackToPreviousAction',
  'resetVisaAction',
  'interruptVisaAction',
  'sendToParallelOpinion',
  'sendToOpinionCircuitAction',
  'continueOpinionCircuitAction',
  'giveOpinionParallelAction',
  'validateParallelOpinionDiffusionAction',
  'reconcileAction',
  'sendAlfrescoAction',
  'saveRegisteredMailAction',
  'saveAndPrintRegisteredMailAction',
  'saveAndIndexRegisteredMailAction',
  'printRegisteredMailAction',
  'printDepositListAction',
  'sendToRecordManagementAction',
  'checkAcknowledgmentRecordManagementAction',
  'checkReplyRecordManagementAction',
  'resetRecordManagementAction',
  'noConfirmAction',
] as const

/** The components Mailroom runs: each does what 20.10's does before the status, lock, note and history. */
export const SUPPORTED_ACTION_COMPONENTS = [
  'confirmAction',
  'noConfirmAction',
  'closeMailAction',
  'closeMailWithAttachmentsOrNotesAction',
  'redirectAction',
  'redirectInitiatorEntityAction',
  'resMarkAsReadAction',
  'updateDepartureDateAction',
  'enabledBasketPersistenceAction',
  'disabledBasketPersistenceAction',
] as const satisfies readonly (typeof MAARCH_ACTION_COMPONENTS)[number][]

export type SupportedActionComponent = (typeof SUPPORTED_ACTION_COMPONENTS)[number]

const KNOWN: ReadonlySet<string> = new Set(MAARCH_ACTION_COMPONENTS)
const SUPPORTED: ReadonlySet<string> = new Set(SUPPORTED_ACTION_COMPONENTS)

/** How Mailroom takes an action's component: run it, refuse it as unsupported, or as unknown to 20.10. */
export function componentStanding(
  component: string | null,
): 'missing' | 'unknown' | 'unsupported' | SupportedActionComponent {
  if (component === null || component === '') return 'missing'
  if (!KNOWN.has(component)) return 'unknown'
  return SUPPORTED.has(component) ? (component as SupportedActionComponent) : 'unsupported'
}
