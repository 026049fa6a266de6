/** A confirmation the next page shows once (an action's outcome, shown by the list the letter left). */
let pending: string | null = null

export function leaveMessage(text: string): void {
  pending = text
}

export function takeMessage(): string | null {
  const text = pending
  pending = null
  return text
}
