import { existsSync } from 'node:fs'
import { demoAuth, startTestServer, type TestServer } from '@mailroom/testing'
import { makePdf } from '../../../packages/testing/src/fixtures/files/index.js'
import { CONSOLE_DIST } from './console-dist.js'

/** Records the flows read, created by ppetit (Service Courrier, perimeter 1=1) with a one-page PDF each. */
export interface SeededRecords {
  /** Destination PJS (6): in bbain's perimeter. */
  readonly inPerimeter: readonly number[]
  /** Destination DRH (4): outside bbain's perimeter. */
  readonly outside: number
  /** Destination DRH, outside bbain's perimeter; ddur (CONSULT: no perimeter, no add_links) is in its diffusion list. */
  readonly sharedWithDdur: number
}

export async function createRecord(
  server: TestServer,
  subject: string,
  destination: number,
  doctype: number,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const encodedFile = Buffer.from(makePdf()).toString('base64')
  const response = await server.call('POST', '/rest/resources', {
    auth: demoAuth('ppetit'),
    body: {
      modelId: 1,
      status: 'NEW',
      doctype,
      subject,
      destination,
      chrono: true,
      encodedFile,
      format: 'pdf',
      ...extra,
    },
  })
  if (response.status !== 200) throw new Error(`seeding failed: ${response.status} ${response.text}`)
  return response.json.resId as number
}

/** A test server with the demo organisation, the console at /console and a few records. */
export async function startConsoleServer(): Promise<{ server: TestServer; records: SeededRecords }> {
  if (!existsSync(`${CONSOLE_DIST}/index.html`))
    throw new Error(`the console is not built: run pnpm --filter @mailroom/console build (${CONSOLE_DIST})`)
  const server = await startTestServer({ http: { consoleDir: CONSOLE_DIST } })
  const inPerimeter: number[] = []
  for (const [subject, doctype] of [
    ['Demande de subvention piscine', 103],
    ['Réclamation gymnase', 105],
    ['Convocation conseil des sports', 102],
  ] as const) {
    inPerimeter.push(await createRecord(server, subject, 6, doctype))
  }
  const outside = await createRecord(server, 'Dossier du personnel', 4, 101)
  const sharedWithDdur = await createRecord(server, 'Avis sur le plan de formation', 4, 102, {
    diffusionList: [{ id: 6, type: 'user', mode: 'dest' }],
  })
  return { server, records: { inPerimeter, outside, sharedWithDdur } }
}
