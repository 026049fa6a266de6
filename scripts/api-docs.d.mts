/** Types of scripts/api-docs.mjs for the test that imports it. */
export declare const ENTRY_POINTS: { name: string; file: string }[]
export declare function collectPublicApi(): {
  name: string
  file: string
  symbols: { name: string; kind: string; doc: string | null; signature: string; file: string }[]
}[]
