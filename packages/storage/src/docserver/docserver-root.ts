import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { access, mkdir, rm, writeFile } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'

/** The document storage root (MAILROOM_DOCSERVER_DIR): storage areas live in sub-folders of it. */
export class DocserverRoot {
  readonly path: string

  constructor(path: string) {
    this.path = resolve(path)
  }

  /** Creates the root when missing. */
  async ensure(): Promise<void> {
    await mkdir(this.path, { recursive: true })
  }

  /**
   * True when a file can be written and removed at the root now: a probe that a read-only mount, a full
   * disk or lost permissions fail, where the rights check of {@link isUsable} may still pass.
   */
  async acceptsWrites(): Promise<boolean> {
    const probe = join(this.path, `.mailroom-write-probe-${process.pid}-${randomBytes(4).toString('hex')}`)
    try {
      await writeFile(probe, 'ok')
      return true
    } catch {
      return false
    } finally {
      await rm(probe, { force: true }).catch(() => {})
    }
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

  /**
   * The absolute path of a stored file from its database columns: the storage area's `path_template`, the
   * record's `path` (reference rows may use `#` as separator) and `filename`. Null when the result would
   * leave the root (an absolute template, `..`), so a tampered row cannot point anywhere else.
   */
  fileOf(pathTemplate: string, path: string, filename: string): string | null {
    const parts = [pathTemplate, path.replaceAll('#', '/'), filename]
    if (parts.some((p) => isAbsolute(p))) return null
    const target = resolve(join(this.path, ...parts))
    return this.contains(target) ? target : null
  }

  /** The store key of a file inside the root: its path relative to the root, with `/` separators. */
  keyOf(absolutePath: string): string {
    return relative(this.path, absolutePath).split(sep).join('/')
  }

  /** The absolute path of a key; null when it would leave the root. */
  pathOf(key: string): string | null {
    if (isAbsolute(key)) return null
    const target = resolve(this.path, key)
    return this.contains(target) ? target : null
  }

  /** True when `absolutePath` lies strictly inside the root. */
  contains(absolutePath: string): boolean {
    const rel = relative(this.path, absolutePath)
    return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel)
  }
}
