import { fileURLToPath } from 'node:url'

/** The built console (pnpm build): what the server serves at /console. */
export const CONSOLE_DIST = fileURLToPath(new URL('../dist', import.meta.url))
