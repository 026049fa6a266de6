import { execFile } from 'node:child_process'

/** Output beyond this is cut: a letter's text is kilobytes; a runaway tool must not fill the memory. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024

/**
 * Runs an external tool (pdftotext, pdftoppm, tesseract) without a shell and without blocking the event loop;
 * resolves with its standard output, rejects with its standard error's first line when it fails.
 */
export function runTool(command: string, args: readonly string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
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
  })
}
