/** Like Promise.all, but waits for every promise before failing with the first failure (no write left running). */
export async function settled<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  return (await Promise.allSettled(promises)).map(outcomeValue)
}

/** A settled promise's value, or its failure thrown. */
export function outcomeValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason
  return result.value
}

/** Runs `work` on each item, at most `limit` at once, in order of the results. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T)
  }
  await settled(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
