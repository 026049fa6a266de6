import { execFile } from 'node:child_process'
import { constants, setPriority } from 'node:os'

/** Output beyond this is cut: a letter's text is kilobytes; a runaway tool must not fill the memory. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024

/**
 * Runs an external tool (pdftotext, pdftoppm, tesseract) without a shell and without blocking the event loop;
 * resolves with its standard output, rejects with its standard error's first line when it fails. The tool runs
 * at the lowest CPU priority: extraction is background work, and on a server's cores it must yield to the
 * requests (an OCR page holds a core for seconds).
 */
export function runTool(command: string, args: readonly string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      {
        encoding: 'utf8',
        maxBuffer: MAX_OUTPUT_BYTES,
        timeout: timeoutMs,
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      },
      (error, stdout, stderr) => {
        if (error) {
          const reason = String(stderr).trim().split('\n')[0] || error.message
          reject(new Error(`${command} failed: ${reason}`))
        } else resolve(stdout)
      },
    )
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, constants.priority.PRIORITY_LOW)
      } catch {
        // Exited already, or a system that refuses: the tool runs at the server's priority.
      }
    }
  })
}
