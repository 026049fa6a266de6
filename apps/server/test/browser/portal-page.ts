import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * The page a portal of another origin would serve: it imports the built SDK (ESM, as a bundler would
 * ship it) and walks through sign-in, a record with a file, a search and the PDF as a Blob, writing each
 * result into the DOM. A failure writes its error's name and message instead.
 */
function pageHtml(apiUrl: string, encodedFile: string): string {
  const script = `
import { createClient } from '/sdk/index.js'
const api = ${JSON.stringify(apiUrl)}
const show = (id, text) => { document.getElementById(id).textContent = text }
try {
  const tokens = await createClient({ baseUrl: api, retries: 0 }).authenticate('bbain', 'maarch')
  show('token', tokens.token.length > 20 && tokens.refreshToken.length > 20 ? 'received' : 'missing')
  const mailroom = createClient({ baseUrl: api, auth: { token: tokens.token }, retries: 0 })
  const { resId } = await mailroom.createRecord({
    modelId: 1, status: 'NEW', subject: 'Portal letter from another origin', destination: 6,
    encodedFile: ${JSON.stringify(encodedFile)}, format: 'pdf',
  })
  show('created', String(resId))
  const { resources } = await mailroom.search({ select: 'res_id, subject', clause: "subject = 'Portal letter from another origin'" })
  show('found', resources.map((record) => record.subject + ' #' + record.res_id).join(', '))
  const blob = new Blob([await mailroom.getContent(resId)], { type: 'application/pdf' })
  show('pdf', blob.type + ' ' + (await blob.slice(0, 5).text()) + ' ' + (blob.size > 1000 ? 'large' : 'small'))
  // Response headers a script may read only when the server exposes them.
  const raw = await fetch(api + '/rest/resources/' + resId + '/content', { headers: { authorization: 'Bearer ' + tokens.token } })
  show('exposed', [raw.headers.get('x-request-id') ? 'X-Request-Id' : '-', raw.headers.get('content-disposition') ? 'Content-Disposition' : '-'].join(' '))
  show('status', 'done')
} catch (error) {
  show('status', 'failed: ' + error.name + ': ' + error.message)
}
`
  const fields = ['token', 'created', 'found', 'pdf', 'exposed', 'status']
    .map((id) => `<p>${id}: <span id="${id}"></span></p>`)
    .join('\n')
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>portal</title></head><body>\n${fields}\n<script type="module">${script}</script>\n</body></html>\n`
}

/** A tiny static server for the page and the SDK bundle, on its own port (so on its own origin). */
export interface PortalServer {
  readonly origin: string
  close(): Promise<void>
}

export async function startPortal(options: {
  apiUrl: () => string
  sdkBundle: string
  encodedFile: string
}): Promise<PortalServer> {
  const server: Server = createServer(async (req, res) => {
    if (req.url === '/sdk/index.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(await readFile(options.sdkBundle))
    } else if (req.url === '/' || req.url === '/index.html') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(pageHtml(options.apiUrl(), options.encodedFile))
    } else {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
