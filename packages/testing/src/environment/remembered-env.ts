/**
 * Test files share their worker's process (vitest runs without isolation): a file that sets environment
 * variables for its own run puts them back when it ends. Returns the function that puts them back.
 */
export function rememberEnv(...names: string[]): () => void {
  const before = new Map(names.map((name) => [name, process.env[name]]))
  return () => {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}
