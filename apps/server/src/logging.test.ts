import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { ConfigError } from './config-error.js'
import { createLogger, logFormat } from './logging.js'

/** A stream that keeps what is written, a terminal or not. */
function capture(isTTY: boolean) {
  const chunks: string[] = []
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk))
        done()
      },
    }),
    { isTTY },
  )
  return { stream, text: () => chunks.join('') }
}

describe('log format', () => {
  it('is pretty on a terminal and JSON lines elsewhere, unless MAILROOM_LOG_FORMAT says', () => {
    expect(logFormat({}, { stream: capture(true).stream })).toBe('pretty')
    expect(logFormat({}, { stream: capture(false).stream })).toBe('json')
    expect(logFormat({ MAILROOM_LOG_FORMAT: 'json' }, { stream: capture(true).stream })).toBe('json')
    expect(logFormat({ MAILROOM_LOG_FORMAT: 'Pretty' }, { stream: capture(false).stream })).toBe('pretty')
    expect(() => logFormat({ MAILROOM_LOG_FORMAT: 'xml' }, { stream: capture(false).stream })).toThrow(ConfigError)
    expect(() => logFormat({ MAILROOM_LOG_FORMAT: 'xml' }, { stream: capture(false).stream })).toThrow(
      'MAILROOM_LOG_FORMAT must be json or pretty, got "xml"',
    )
  })

  it('writes one JSON object per line by default', () => {
    const out = capture(false)
    const log = createLogger({}, out)
    log
      .child({ requestId: 'r-1' })
      .info({ method: 'GET', route: '/rest/entities/:id', status: 200, durationMs: 3.2, user: 'bbain' }, 'request')
    const line = JSON.parse(out.text().trim()) as Record<string, unknown>
    expect(line).toMatchObject({
      level: 30,
      service: 'mailroom',
      requestId: 'r-1',
      route: '/rest/entities/:id',
      status: 200,
      user: 'bbain',
      msg: 'request',
    })
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT/)
  })

  it('writes request lines as one readable sentence when pretty, other fields below their line', () => {
    const out = capture(false)
    const log = createLogger({ MAILROOM_LOG_FORMAT: 'pretty' }, out)
    log
      .child({ requestId: 'r-2' })
      .info({ method: 'POST', route: '/rest/resources', status: 200, durationMs: 41.5, user: 'bbain' }, 'request')
    log.info({ url: 'http://127.0.0.1:8080' }, 'Mailroom ready on http://127.0.0.1:8080')
    const lines = out.text().split('\n')
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[r-2\] POST \/rest\/resources 200 41\.5ms bbain$/)
    expect(lines[1]).toMatch(/INFO: Mailroom ready on http:\/\/127\.0\.0\.1:8080$/)
    expect(lines[2]).toBe('    url: "http://127.0.0.1:8080"')
    expect(out.text()).not.toContain('{')
  })

  it('redacts credentials a caller might hand to the logger', () => {
    const out = capture(false)
    createLogger({}, out).info(
      { body: { login: 'bbain', password: 'maarch', token: 'tok', encodedFile: 'JVBERi0' } },
      'something',
    )
    expect(out.text()).not.toMatch(/maarch|"tok"|JVBERi0/)
    expect(out.text()).toContain('"login":"bbain"')
  })
})
