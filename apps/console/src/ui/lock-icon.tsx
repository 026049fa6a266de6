/** A padlock drawn in SVG (no emoji font is needed; the text beside it says who holds the letter). */
export function LockIcon() {
  return (
    <svg class="lock-icon" width="12" height="14" viewBox="0 0 12 14" aria-hidden="true">
      <path d="M3 6V4a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" stroke-width="1.6" />
      <rect x="1" y="6" width="10" height="8" rx="1.5" fill="currentColor" />
    </svg>
  )
}
