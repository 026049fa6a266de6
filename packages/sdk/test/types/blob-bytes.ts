// Type test (compiled, never run): the SDK's byte results go into Web APIs without a cast. Compiled with the
// package's Node typecheck and, by blob-bytes.test.ts, as a browser bundle would (lib "dom", no Node types).
import { type Bytes, createClient, decodeBase64 } from '@mailroom/sdk'

const mailroom = createClient({ baseUrl: 'http://127.0.0.1:8080' })

export async function downloads(): Promise<Blob[]> {
  const pdf = await mailroom.getContent(1)
  const original = await mailroom.getOriginalContent(1)
  const version = decodeBase64((await mailroom.getVersionContent(1, 1)).encodedDocument)
  const decoded = decodeBase64((await mailroom.getContent(1, { mode: 'base64' })).encodedDocument)
  const digest: ArrayBuffer = await crypto.subtle.digest('SHA-256', pdf)
  const bytes: Bytes[] = [pdf, original, version, decoded]
  void digest
  return [
    new Blob([pdf], { type: 'application/pdf' }),
    new Blob([original]),
    new Blob([version]),
    new Blob([decoded]),
    new Blob(bytes),
  ]
}

export async function streamed(): Promise<Response> {
  return new Response(await mailroom.getContent(1, { stream: true }))
}
