import type { TestResponse, TestServer } from '../servers/test-server.js'
import { type MaarchExchange, maarchCredentials, maarchRequestPath } from './maarch-exchanges.js'

/** Sends an exchange's request, as the recorder sent it to Maarch, to a Mailroom test server. */
export function replayMaarchRequest(server: Pick<TestServer, 'call'>, exchange: MaarchExchange): Promise<TestResponse> {
  const { request } = exchange
  const body = request.body
  return server.call(request.method, maarchRequestPath(exchange), {
    auth: maarchCredentials(request.user),
    ...(typeof body === 'string' ? { rawBody: body, headers: { 'content-type': 'application/json' } } : {}),
    ...(body !== null && typeof body === 'object' ? { body } : {}),
  })
}
