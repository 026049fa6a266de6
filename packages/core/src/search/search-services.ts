/** Use cases of the search capability, as adapters call them (filled in by the search work). */
// biome-ignore lint/suspicious/noEmptyInterface: grows with the capability
export interface SearchServices {}
