/** At most this many records linked by one request (20.10 takes any number): no request locks an unbounded set. */
export const MAX_LINKED_RESOURCES = 500
