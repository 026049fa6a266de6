/** Use cases of the status capability, as adapters call them (filled in by the status work). */
// biome-ignore lint/suspicious/noEmptyInterface: grows with the capability
export interface StatusServices {}
