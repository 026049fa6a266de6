import { domainError, type MailroomServices } from '@mailroom/core'
import { openApiDocument } from '@mailroom/http-koa'
import { describe, expect, it } from 'vitest'
import { type ErrorAnswer, undocumentedErrorAnswers } from './error-answers.js'
import { serveOnLoopback } from './test-server.js'

const answer = (method: string, path: string, status: number, code?: ErrorAnswer['code']): ErrorAnswer => ({
  method,
  path,
  status,
  code,
})

describe('error answers checked against the OpenAPI document', () => {
  it("passes a route's declared codes and those of the stages before it (body, credentials, server)", () => {
    const answers = [
      answer('POST', '/rest/resources', 400, 'CREATE_DATA_EMPTY'),
      answer('POST', '/rest/resources', 400, 'MALFORMED_JSON'),
      answer('GET', '/rest/entities/PJS', 401, 'AUTHENTICATION_FAILED'),
      answer('GET', '/rest/entities/PJS', 400, 'ENTITY_NOT_FOUND'),
      answer('HEAD', '/rest/entities/PJS/', 503, 'SERVICE_UNAVAILABLE'),
      answer('GET', '/digitalSafe/digitalSafe/21750001600019/events', 401, 'JOURNAL_UNAUTHENTICATED'),
      answer('GET', '/readyz', 503),
    ]
    expect(undocumentedErrorAnswers(answers, openApiDocument())).toEqual([])
  })

  it('names the operation, status and code of each answer its route does not declare, once', () => {
    const answers = [
      answer('GET', '/rest/entities/PJS', 400, 'CREATE_DATA_EMPTY'),
      answer('GET', '/rest/entities/DGS', 400, 'CREATE_DATA_EMPTY'),
      answer('POST', '/rest/resources', 409, 'CONTACT_DUPLICATE_MAIL'),
      answer('GET', '/healthz', 500),
    ]
    expect(undocumentedErrorAnswers(answers, openApiDocument())).toEqual([
      'GET /healthz (health): 500 (no code)',
      'GET /rest/entities/{id} (getEntity): 400 CREATE_DATA_EMPTY',
      'POST /rest/resources (createRecord): 409 CONTACT_DUPLICATE_MAIL',
    ])
  })

  it('leaves out answers to no operation: unknown paths, and methods a path does not serve', () => {
    const answers = [
      answer('GET', '/rest/nothing-here', 401, 'AUTHENTICATION_FAILED'),
      answer('GET', '/nothing', 404, 'ROUTE_NOT_FOUND'),
      answer('DELETE', '/rest/entities/PJS', 405, 'METHOD_NOT_ALLOWED'),
    ]
    expect(undocumentedErrorAnswers(answers, openApiDocument())).toEqual([])
  })

  it('makes a test server fail on close when it answered a code its route does not declare', async () => {
    // The refresh route declares REFRESH_TOKEN_EMPTY and AUTHENTICATION_FAILED: this one answers what it never declared.
    const services = {
      auth: { refresh: async () => Promise.reject(domainError('DOCSERVER_NOT_FOUND')) },
    } as unknown as MailroomServices
    const served = await serveOnLoopback(services)
    const refused = await fetch(`${served.baseUrl}/rest/authenticate/token?refreshToken=x`)
    expect(refused.status).toBe(404)
    await expect(served.close()).rejects.toThrow(
      /GET \/rest\/authenticate\/token \(refreshToken\): 404 DOCSERVER_NOT_FOUND/,
    )
  })

  it('closes quietly when every error it answered is documented', async () => {
    const services = {
      auth: { refresh: async () => Promise.reject(domainError('REFRESH_TOKEN_EMPTY')) },
    } as unknown as MailroomServices
    const served = await serveOnLoopback(services)
    const refused = await fetch(`${served.baseUrl}/rest/authenticate/token`)
    expect(refused.status).toBe(400)
    await expect(served.close()).resolves.toBeUndefined()
  })
})
