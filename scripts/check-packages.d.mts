/** Directories of the published packages. */
export const PUBLISHED: string[]
/** Problems of one unpacked tarball, given its file list and a reader of its text files. */
export function tarballProblems(files: string[], read: (file: string) => string): string[]
