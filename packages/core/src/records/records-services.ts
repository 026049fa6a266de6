/** Use cases of the records capability, as adapters call them (filled in by the records work). */
// biome-ignore lint/suspicious/noEmptyInterface: grows with the capability
export interface RecordsServices {}
