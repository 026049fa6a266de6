/** Largest value of PostgreSQL's integer: no stored id is above it. */
export const MAX_SERIAL = 2147483647

/**
 * A path id that must be an integer (`/doctypes/types/{id}`, `/indexingModels/{id}`): its value, or null
 * when it is not written as one. A value past {@link MAX_SERIAL} is returned as is: callers answer it as an
 * unknown id without asking the database (which would refuse it).
 */
export function parseIntegerRouteId(id: string): number | null {
  return /^\d{1,15}$/.test(id) ? Number(id) : null
}
