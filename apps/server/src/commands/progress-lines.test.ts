import { describe, expect, it } from 'vitest'
import { progressLines, rateFigures } from './progress-lines.js'

/** A standard error that keeps what is written to it. */
function fakeStderr(tty: boolean) {
  const written: string[] = []
  const stream = { isTTY: tty, write: (chunk: string) => written.push(chunk) > 0 }
  return { stream: stream as unknown as NodeJS.WriteStream, written }
}

const format = {
  line: (p: { done: number }) => `done ${p.done}`,
  figures: (p: { done: number }) => ({ done: p.done }),
}

describe('progress lines', () => {
  it('redraw one line on a terminal, clear it for another line, and end it with the closing figures', () => {
    const { stream, written } = fakeStderr(true)
    const lines = progressLines(format, 10, stream)
    lines.show({ done: 1 })
    lines.show({ done: 2 }) // within 250 ms of the first: not drawn
    lines.clear()
    lines.show({ done: 3 }) // drawn again at once after a clear
    lines.finish()
    expect(written).toEqual(['\rdone 1\x1b[K', '\r\x1b[K', '\rdone 3\x1b[K', '\rdone 3\x1b[K', '\n'])
  })

  it('write one JSON line per interval elsewhere, the closing one whatever the interval, and never clear', () => {
    const { stream, written } = fakeStderr(false)
    const lines = progressLines(format, 3600, stream)
    lines.wait()
    lines.show({ done: 1 }) // the interval has not passed since wait()
    lines.clear()
    lines.finish()
    expect(written).toEqual(['{"event":"progress","done":1}\n'])
    const every = fakeStderr(false)
    const each = progressLines(format, 0, every.stream)
    each.show({ done: 1 })
    each.show({ done: 2 })
    expect(every.written).toEqual(['{"event":"progress","done":1}\n', '{"event":"progress","done":2}\n'])
  })

  it('show nothing at the end of a run that never said where it was', () => {
    const { stream, written } = fakeStderr(true)
    progressLines(format, 10, stream).finish()
    expect(written).toEqual([])
  })

  it('give the rate and the time left at that rate', () => {
    expect(rateFigures(50, 200, 10 * 1024 * 1024, 10_000)).toEqual({
      elapsedSeconds: 10,
      perSecond: 5,
      megabytesPerSecond: 1,
      secondsLeft: 30,
    })
    expect(rateFigures(0, 200, 0, 10_000).secondsLeft).toBeNull()
  })
})
