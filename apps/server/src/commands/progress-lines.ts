const MB = 1024 * 1024

/** The rates of a run that did `done` of `total` items and read `bytes` in `elapsedMs`, and the time left at that rate. */
export function rateFigures(done: number, total: number, bytes: number, elapsedMs: number) {
  const seconds = Math.max(elapsedMs / 1000, 0.001)
  const rate = done / seconds
  return {
    elapsedSeconds: Math.round(seconds),
    perSecond: Math.round(rate * 10) / 10,
    megabytesPerSecond: Math.round((bytes / MB / seconds) * 100) / 100,
    secondsLeft: rate > 0 ? Math.round((total - done) / rate) : null,
  }
}

/** What a long run shows of its progress: a line for a terminal, the figures for a JSON line. */
export interface ProgressFormat<P> {
  line(progress: P, elapsedMs: number): string
  figures(progress: P, elapsedMs: number): Record<string, unknown>
}

/** Shows a long run's progress on standard error. */
export interface ProgressLines<P> {
  /** Shows `progress` unless the last line is too recent (`force`: shows it anyway). */
  show(progress: P, force?: boolean): void
  /** The next line waits a whole interval from now (after a start line, say). */
  wait(): void
  /** Clears a terminal's line, for another line to take its place (it is drawn again by the next `show`). */
  clear(): void
  /** Shows the last progress once more (the closing figures) and ends a terminal's line. */
  finish(): void
}

/**
 * On a terminal, one line redrawn at most 4 times a second; anywhere else (a log, a pipe), one JSON object
 * `{"event":"progress",…}` per `intervalSeconds` (0: every time).
 */
export function progressLines<P>(
  format: ProgressFormat<P>,
  intervalSeconds: number,
  stderr: NodeJS.WriteStream = process.stderr,
): ProgressLines<P> {
  const started = Date.now()
  const tty = stderr.isTTY === true
  let shown = 0
  let last: P | null = null
  const show = (progress: P, force = false) => {
    last = progress
    const now = Date.now()
    if (!force && now - shown < (tty ? 250 : intervalSeconds * 1000)) return
    shown = now
    if (tty) stderr.write(`\r${format.line(progress, now - started)}\x1b[K`)
    else stderr.write(`${JSON.stringify({ event: 'progress', ...format.figures(progress, now - started) })}\n`)
  }
  return {
    show,
    wait: () => {
      shown = Date.now()
    },
    clear: () => {
      if (!tty || last === null) return
      stderr.write('\r\x1b[K')
      shown = 0
    },
    finish: () => {
      if (last === null) return
      show(last, true)
      if (tty) stderr.write('\n')
    },
  }
}
