/** The format the server is told: the file name's extension (it checks it against the bytes). */
export function fileFormat(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
}
