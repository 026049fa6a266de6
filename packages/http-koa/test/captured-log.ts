import { Writable } from 'node:stream'
import { pino } from 'pino'

/** A pino logger at `warn` whose lines are kept, parsed, in `lines`. */
export function capturedLog() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line))
      done()
    },
  })
  return { lines, logger: pino({ level: 'warn' }, stream) }
}
