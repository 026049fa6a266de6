import { realpath, stat } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'

/**
 * The real path of `name` inside the folder `root` when it is a regular file there, null otherwise: a name that
 * climbs out (`..`, an absolute path, a backslash or a NUL), or a file reached through a symbolic link that
 * points outside the folder, is not served. The folder's own path may itself be a link (the operator's choice).
 */
export async function fileInside(root: string, name: string): Promise<string | null> {
  if (name.includes('\0') || name.includes('\\') || isAbsolute(name)) return null
  if (name.split('/').some((part) => part === '..')) return null
  try {
    const realRoot = await realpath(root)
    const real = await realpath(resolve(realRoot, name))
    const inside = relative(realRoot, real)
    if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) return null
    return (await stat(real)).isFile() ? real : null
  } catch {
    return null
  }
}
