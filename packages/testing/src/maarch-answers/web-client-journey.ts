import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Where the journey of 20.10's web client is recorded: ../shared beside the repository (GPL material: read, never copied). */
export const WEB_CLIENT_JOURNEY = fileURLToPath(
  new URL('../../../../../shared/reference/maarch-20.10-web-client/journey-20.10.json', import.meta.url),
)

/** The recorded journey, or nothing when ../shared is absent. */
export interface WebClientJourney {
  readonly present: boolean
  /** The first call of the journey with this method whose path matches, and its answer parsed. */
  recorded(method: string, path: RegExp): { readonly status: number; readonly body: any }
}

/**
 * Reads the journey for the comparisons `what` names. Without it the comparisons are skipped, saying so on
 * stderr; under CI=true its absence fails the test file instead.
 */
export function webClientJourney(what: string): WebClientJourney {
  const present = existsSync(WEB_CLIENT_JOURNEY)
  if (!present) {
    if (process.env.CI === 'true') throw new Error(`CI must run every test: ${WEB_CLIENT_JOURNEY} is missing`)
    process.stderr.write(`${what} is skipped: ${WEB_CLIENT_JOURNEY} is missing\n`)
  }
  const steps: { method: string; path: string; status: number; body: string }[] = present
    ? JSON.parse(readFileSync(WEB_CLIENT_JOURNEY, 'utf8'))
    : []
  return {
    present,
    recorded(method, path) {
      const step = steps.find((s) => s.method === method && path.test(s.path))
      if (!step) throw new Error(`the journey has no ${method} ${path}`)
      return { status: step.status, body: JSON.parse(step.body) }
    },
  }
}
