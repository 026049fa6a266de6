import { basicAuth } from './process-server.js'

/** The bytes of a small text letter labelled `label` (a few KB, so creates store a real file). */
export function textFile(label: string): Buffer {
  return Buffer.from(`Courrier ${label}\n${'contenu '.repeat(200)}\n`)
}

/**
 * Creates a record with `bytes` as its file (a text letter by default) in `format`, as cchaplin; the answer's
 * status and body.
 */
export async function postLetter(
  url: string,
  label: string,
  bytes: Uint8Array = textFile(label),
  format = 'txt',
): Promise<{ status: number; body: { resId?: number; errors?: string } }> {
  const response = await fetch(`${url}/rest/resources`, {
    method: 'POST',
    headers: { ...basicAuth('cchaplin'), 'content-type': 'application/json' },
    body: JSON.stringify({
      modelId: 1,
      status: 'NEW',
      subject: label,
      format,
      encodedFile: Buffer.from(bytes).toString('base64'),
      destination: 6,
    }),
    signal: AbortSignal.timeout(60_000),
  })
  return { status: response.status, body: (await response.json()) as { resId?: number; errors?: string } }
}
