/** Use cases of the content capability, as adapters call them (filled in by the content work). */
// biome-ignore lint/suspicious/noEmptyInterface: grows with the capability
export interface ContentServices {}
