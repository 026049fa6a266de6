/** The most letters one action, lock or lock check takes (20.10's `array_slice(..., 0, 500)`). */
export const MAX_ACTION_RESOURCES = 500

/** How long a lock lasts unless renewed: the client renews it while the letter stays open. */
export const LOCK_SECONDS = 60
