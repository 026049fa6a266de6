import { constants } from 'node:fs'
import { access, mkdir } from 'node:fs/promises'

/** The document storage root (MAILROOM_DOCSERVER_DIR): storage areas live in sub-folders of it. */
export class DocserverRoot {
  readonly path: string

  constructor(path: string) {
    this.path = path
  }

  /** Creates the root when missing. */
  async ensure(): Promise<void> {
    await mkdir(this.path, { recursive: true })
  }

  /** True when the root exists and this process may read and write it. */
  async isUsable(): Promise<boolean> {
    try {
      await access(this.path, constants.R_OK | constants.W_OK)
      return true
    } catch {
      return false
    }
  }
}
