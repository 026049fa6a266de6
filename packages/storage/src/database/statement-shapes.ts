/**
 * Constant statement texts by shape: a statement made of optional parts (a bit per part) is built once per
 * combination of parts and kept, so a caller sends the same text for the same shape, prepared once per
 * connection, and nothing is built per call. `build` gets whether the part at an index is present.
 */
export function statementShapes<P, S>(
  parts: readonly P[],
  build: (present: (index: number) => boolean) => S,
): (isPresent: (part: P) => boolean) => S {
  if (parts.length > 16) throw new RangeError('statementShapes: at most 16 optional parts')
  const shapes = new Map<number, S>()
  return (isPresent) => {
    let mask = 0
    parts.forEach((part, index) => {
      if (isPresent(part)) mask |= 1 << index
    })
    let shape = shapes.get(mask)
    if (shape === undefined) {
      const built = mask
      shape = build((index) => (built & (1 << index)) !== 0)
      shapes.set(mask, shape)
    }
    return shape
  }
}
