import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { findImportCycles, importGraph } from '../../testing/src/index.js'

const SOURCE = dirname(fileURLToPath(import.meta.url))

describe('imports between the adapter’s files', () => {
  it('form no loop: a module never needs, even for a type, one that needs it back', () => {
    expect(findImportCycles(SOURCE)).toEqual([])
  })

  it('are read with their type-only imports and re-exports, which made the loops this test keeps out', () => {
    const graph = importGraph(SOURCE)
    // Once app-state.ts imported the error renderer's type from error-handler.ts, which imports AppState.
    expect(graph.get('middleware/error-handler.ts')).toContain('app-state.ts')
    // Once route-declaration.ts imported ServerLifecycle and MetricsEndpoint from the routes that import it.
    expect(graph.get('routes/health-routes.ts')).toContain('routes/route-declaration.ts')
    expect(graph.get('index.ts')).toContain('routes/route-declaration.ts')
  })
})
