import { describe, expect, it } from 'vitest'
import { runTool } from './run-tool.js'

describe('runTool', () => {
  it('runs the tool at the lowest CPU priority, behind the requests', async () => {
    // `nice` without arguments prints the niceness it inherited from the shell the tool started.
    expect(await runTool('sh', ['-c', 'sleep 0.2; nice'], 10_000)).toBe('19\n')
  })

  it("rejects with the tool's first line of standard error when it fails", async () => {
    await expect(runTool('sh', ['-c', 'echo "no such page" >&2; echo more >&2; exit 3'], 10_000)).rejects.toThrow(
      'sh failed: no such page',
    )
  })
})
