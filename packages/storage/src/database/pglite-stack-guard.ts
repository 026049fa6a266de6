import type { PGlite } from '@electric-sql/pglite'

/** The part of PGlite's Emscripten module that runs one protocol step of the backend and recovers from an ERROR. */
interface BackendLoop {
  _PostgresMainLoopOnce(): unknown
  _PostgresMainLongJmp(): void
  stackSave(): number
  stackRestore(pointer: number): void
}

/** Tells whether a statement overflowed the engine's stack since the question was last asked. */
export interface StackOverflowGuard {
  takeOverflow(): boolean
}

/** What PostgreSQL answers to a statement that recurses past max_stack_depth: the same on both engines. */
export function stackDepthExceeded(): Error {
  return Object.assign(new Error('stack depth limit exceeded'), { code: '54001', severity: 'ERROR' })
}

/**
 * Makes a stack overflow inside the embedded engine end its statement the way an ERROR does.
 *
 * A statement that recurses deep (a jsonb value nested 10,000 levels, parsed recursively) runs out of V8's own
 * stack before PostgreSQL's check_stack_depth notices: that check measures Emscripten's shadow stack, which these
 * frames hardly use. V8 throws a RangeError through the wasm frames; PGlite catches every exception of its backend
 * loop but runs PostgreSQL's error recovery only for PostgreSQL's own longjmp, so it swallows this one: the statement
 * answers as an empty result and the backend keeps the error-handling state of frames that no longer exist. The next
 * ERROR (any failing statement) jumps into that state and spins for ever, synchronously, freezing the process.
 * Running PostgreSQL's recovery (the longjmp target of PostgresMain: abort the transaction, reset the error and memory
 * state) right after the overflow leaves the backend as sound as after any ERROR, and the statement fails.
 */
export function guardStackOverflow(pglite: PGlite): StackOverflowGuard {
  // One guard per engine: a second wrapper would recover first and leave the first one's flag unset.
  const installed = GUARDS.get(pglite)
  if (installed) return installed
  const backend = pglite.Module as unknown as Partial<BackendLoop>
  const { _PostgresMainLoopOnce: loopOnce, _PostgresMainLongJmp: recover, stackSave, stackRestore } = backend
  if (
    typeof loopOnce !== 'function' ||
    typeof recover !== 'function' ||
    typeof stackSave !== 'function' ||
    typeof stackRestore !== 'function'
  )
    throw new Error('PGlite no longer exposes its backend loop: the stack-overflow guard cannot be installed')
  let overflowed = false
  backend._PostgresMainLoopOnce = () => {
    const stack = stackSave()
    try {
      return loopOnce()
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      overflowed = true
      stackRestore(stack)
      recover()
      return undefined
    }
  }
  const guard = {
    takeOverflow() {
      const was = overflowed
      overflowed = false
      return was
    },
  }
  GUARDS.set(pglite, guard)
  return guard
}

const GUARDS = new WeakMap<PGlite, StackOverflowGuard>()
