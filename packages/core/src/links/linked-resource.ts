import type { Actor } from '../actors/actor.js'

/** A record linked to another, as `GET /rest/resources/{resId}/linkedResources` lists it (20.10's shape). */
export interface LinkedResource {
  readonly resId: number
  readonly subject: string | null
  /** `YYYY-MM-DD HH:MM:SS` as 20.10 writes doc_date, or null. */
  readonly documentDate: string | null
  readonly status: string | null
  readonly statusLabel?: string
  readonly statusImage?: string | null
  readonly destUser: number | null
  /** Only when the record has a destUser: their name. */
  readonly destUserLabel?: string
  readonly destination: string | null
  /** Only when the record has a destination: its short label. */
  readonly destinationLabel?: string | null
  readonly chrono: string | null
  readonly categoryId: string
  readonly filename: string | null
  readonly format: string | null
  readonly confidentiality: boolean
  readonly hasDocument: boolean
  readonly canConvert: boolean
  /** Senders and recipients, each as 20.10 displays them (a contact's name and company, a user's, an entity's label). */
  readonly senders: readonly string[]
  readonly recipients: readonly string[]
  readonly visaCircuit: readonly { item_id: number; item_mode: string; userLabel: string }[]
}

/** Body of `GET /rest/resources/{resId}/linkedResources`. */
export interface LinkedResources {
  readonly linkedResources: readonly LinkedResource[]
}

/** Use cases of links between records. */
export interface LinksServices {
  /** The records linked to `resId` that the actor may see (the others are left out, as 20.10 does). */
  list(actor: Actor, resId: string | undefined): Promise<LinkedResources>
  /** Links `resId` with each record of the body, both ways; a link that exists is left as it is. */
  link(actor: Actor, resId: string | undefined, body: unknown, meta?: { remoteIp?: string }): Promise<void>
  /** Removes the link between the two records, both ways; no link: nothing to do, still a success. */
  unlink(actor: Actor, resId: string | undefined, id: string | undefined, meta?: { remoteIp?: string }): Promise<void>
}
