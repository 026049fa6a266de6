import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'

/** Where Maarch's `/opt/maarch/docservers/` is here, and per-docserver folders that live elsewhere. */
export interface DocserverLocations {
  /** The folder standing for Maarch's docservers root (the parent of every path_template's last folder). */
  readonly root: string
  /** docserver_id -> folder holding that docserver's files (replaces its path_template). */
  readonly overrides?: Readonly<Record<string, string>>
}

/**
 * The file a Maarch row names: path_template of its docserver, then `path` with `#` for `/`, then filename.
 * A path_template is absolute on the Maarch server (`/opt/maarch/docservers/resources/`): its last folder
 * is looked for under `root`. Null when the row's parts would leave the folder (`..`).
 */
export function maarchFilePath(
  locations: DocserverLocations,
  docserverId: string,
  pathTemplate: string,
  path: string,
  filename: string,
): string | null {
  const base =
    locations.overrides?.[docserverId] ?? join(locations.root, pathTemplate.replace(/\/+$/, '').split('/').pop() ?? '')
  const folder = resolve(base)
  const file = resolve(folder, ...path.split('#').filter((p) => p !== ''), filename)
  return file.startsWith(folder + sep) ? file : null
}

/** Reads a file, or null when it is not there. */
export async function readIfPresent(file: string | null): Promise<Buffer | null> {
  if (file === null) return null
  try {
    return await readFile(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR')
      return null
    throw error
  }
}

/** How a source fingerprint compares with the bytes found. */
export type FingerprintCheck = 'matched' | 'computed' | 'mismatch'

/** Checks a Maarch fingerprint with the docserver type's mode (SHA512, SHA256, MD5…); '0' and empty are computed. */
export function checkFingerprint(
  bytes: Uint8Array,
  mode: string | null,
  source: string | null,
): { check: FingerprintCheck; computed: string; mode: string } {
  const algorithm = (mode ?? 'SHA512').toLowerCase().replace(/[^a-z0-9]/g, '')
  const used = ['sha512', 'sha256', 'sha1', 'md5'].includes(algorithm) ? algorithm : 'sha512'
  const computed = createHash(used).update(bytes).digest('hex')
  const given = (source ?? '').trim().toLowerCase()
  const check: FingerprintCheck =
    given === '' || given === '0' ? 'computed' : given === computed ? 'matched' : 'mismatch'
  return { check, computed, mode: used.toUpperCase() }
}
