import type { ErrorCode } from '@mailroom/core'
import type { createHttpApp, OpenApiDocument } from '@mailroom/http-koa'

/** A middleware of the HTTP application, typed by its state (this package reaches Koa through http-koa only). */
type HttpMiddleware = ReturnType<typeof createHttpApp>['middleware'][number]

/** One error a test server answered: the request's method and path, the status and the catalogue code. */
export interface ErrorAnswer {
  readonly method: string
  readonly path: string
  readonly status: number
  /** The code the error handler answered with; absent for an error status a route set itself. */
  readonly code: ErrorCode | undefined
}

/**
 * A Koa middleware, put before every other one, that appends each error answer (status 400 and above) to
 * `answers`, with the code the error handler left on `ctx.state`.
 */
export function recordErrorAnswers(answers: ErrorAnswer[]): HttpMiddleware {
  return async (ctx, next) => {
    try {
      await next()
    } finally {
      if (ctx.status >= 400)
        answers.push({ method: ctx.method, path: ctx.path, status: ctx.status, code: ctx.state.errorCode })
    }
  }
}

interface Operation {
  readonly method: string
  readonly path: string
  readonly operationId: string
  readonly pattern: RegExp
  readonly parameters: number
  readonly responses: Record<string, { content?: Record<string, { examples?: Record<string, unknown> }> }>
}

/** The document's operations with a pattern each, paths without parameters first (OpenAPI's matching order). */
function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const segments = path
      .split('/')
      .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    for (const [method, operation] of Object.entries(item as Record<string, Operation | undefined>)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue
      operations.push({
        method,
        path,
        operationId: operation.operationId,
        // As Koa's router matches: case-insensitive, a trailing slash allowed.
        pattern: new RegExp(`^${segments.join('/')}/?$`, 'i'),
        parameters: path.split('{').length - 1,
        responses: operation.responses,
      })
    }
  }
  return operations.sort((a, b) => a.parameters - b.parameters)
}

/**
 * The error answers the document does not describe, one line each (`GET /rest/entities/{id} (entity): 404
 * ENTITY_NOT_FOUND`), without repeats: an answer of an operation whose responses lack its status, or whose
 * examples under that status lack its code. Answers to no operation (unknown paths, methods a path does not
 * serve) are no operation's to document.
 */
export function undocumentedErrorAnswers(answers: readonly ErrorAnswer[], document: OpenApiDocument): string[] {
  const operations = operationsOf(document)
  const found = new Set<string>()
  for (const answer of answers) {
    const method = answer.method === 'HEAD' ? 'get' : answer.method.toLowerCase()
    const operation = operations.find((candidate) => candidate.method === method && candidate.pattern.test(answer.path))
    if (operation === undefined) continue
    const response = operation.responses[String(answer.status)]
    const examples = Object.values(response?.content ?? {}).flatMap((content) => Object.keys(content.examples ?? {}))
    const documented = response !== undefined && (answer.code === undefined || examples.includes(answer.code))
    if (!documented)
      found.add(
        `${method.toUpperCase()} ${operation.path} (${operation.operationId}): ${answer.status} ${answer.code ?? '(no code)'}`,
      )
  }
  return [...found].sort()
}
