/**
 * Mailroom as a library inside another Node service: no HTTP server, the same use cases, perimeter rules
 * and errors. This file is the example the README shows; `main.ts` runs it and the test checks its output.
 */
import { isDomainError } from '@mailroom/core'
import { createMailroom, type MailroomOptions } from '@mailroom/mailroom'

/** What the example did, so callers (and the test) can check it. */
export interface ExampleOutcome {
  readonly resId: number
  readonly found: readonly Record<string, unknown>[]
  readonly pdfBytes: number
  readonly pdfStartsWithMagic: boolean
  readonly statusAfter: string
  readonly refusedForOutsider: string
  /** The plan of the organisation change the example applies (an entity and a user who can then read the record). */
  readonly organisationPlan: readonly string[]
  /** What the new user finds: the record, now inside their perimeter. */
  readonly foundByNewUser: readonly Record<string, unknown>[]
}

async function collect(body: Uint8Array | AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body
  const chunks: Uint8Array[] = []
  for await (const chunk of body) chunks.push(chunk)
  return Buffer.concat(chunks)
}

/** Creates a record with a file, searches it, reads its PDF and closes it, all through the library. */
export async function runEmbedExample(
  options: Pick<MailroomOptions, 'database' | 'docserverDir' | 'secret'> & Partial<MailroomOptions>,
): Promise<ExampleOutcome> {
  // Migrations run on open; `demo: true` loads the demo organisation when the database has no user.
  const mailroom = await createMailroom({ demo: true, ...options })
  try {
    // Use cases act on behalf of an explicit user: bind them once with `as`.
    const clerk = await mailroom.as('ppetit')
    const letter = Buffer.from('Madame, Monsieur,\nVeuillez trouver ci-joint notre demande de subvention.\n', 'utf8')
    const { resId } = await clerk.records.create({
      modelId: 1,
      status: 'NEW',
      subject: 'Demande de subvention — club de football',
      doctype: 103,
      destination: 6,
      chrono: true,
      documentDate: '2026-11-20',
      format: 'txt',
      encodedFile: letter.toString('base64'),
    })

    const { resources } = await clerk.search.list({
      select: 'res_id,alt_identifier,subject,status',
      clause: `res_id = ${resId}`,
    })

    // The converted PDF, watermarked, as the HTTP endpoint would serve it.
    const content = await clerk.content.readContent(String(resId), {})
    const pdf = content.kind === 'file' ? await collect(content.file.body) : new Uint8Array()

    await clerk.status.update({ status: 'END', resId: [resId], historyMessage: 'Traité' })
    const [after] = (await clerk.search.list({ select: 'status', clause: `res_id = ${resId}` })).resources

    // The same perimeter rules as the server: ddur (CONSULT, clause 1=0) may not read it.
    const outsider = await mailroom.as('ddur')
    const refused = await outsider.content.readContent(String(resId), {}).then(
      () => 'allowed',
      (error: unknown) => (isDomainError(error) ? error.message : String(error)),
    )
    // The organisation is data too: a document (YAML text or an object) validated whole and applied in one
    // transaction. Here a new office under PJS and its first member, who then sees PJS's records.
    const { lines } = await mailroom.organisation.apply({
      version: 1,
      entities: [{ id: 'SPORTS', label: 'Service des sports', shortLabel: 'Sports', type: 'Bureau', parent: 'PJS' }],
      users: [
        {
          login: 'ssport',
          firstname: 'Sam',
          lastname: 'SPORT',
          groups: ['RESPONSABLE'],
          entities: [{ id: 'PJS', primary: true }, { id: 'SPORTS' }],
        },
      ],
    })
    await mailroom.organisation.setPassword('ssport', 'a long passphrase for the example')
    const newcomer = await mailroom.as('ssport')
    const foundByNewUser = (await newcomer.search.list({ select: 'res_id', clause: `res_id = ${resId}` })).resources

    return {
      organisationPlan: lines,
      foundByNewUser,
      resId,
      found: resources,
      pdfBytes: pdf.byteLength,
      pdfStartsWithMagic: Buffer.from(pdf.subarray(0, 5)).toString('latin1') === '%PDF-',
      statusAfter: String(after?.status),
      refusedForOutsider: refused,
    }
  } finally {
    await mailroom.close()
  }
}
