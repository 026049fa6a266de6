/** Use cases of the journal capability, as adapters call them (filled in by the journal work). */
// biome-ignore lint/suspicious/noEmptyInterface: grows with the capability
export interface JournalServices {}
