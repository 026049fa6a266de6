import type { Actor } from '../actors/actor.js'
import type { AuthService } from '../auth/auth-service.js'
import type { Entity } from '../entities/entity.js'

/** What a health probe found. */
export interface MailroomHealth {
  readonly database: boolean
  readonly storage: boolean
}

/**
 * Every use case of Mailroom, acting on behalf of an explicit actor. Storage wires them (createMailroom);
 * adapters such as the Koa server only translate requests into these calls.
 */
export interface MailroomServices {
  readonly auth: AuthService
  readonly entities: {
    /** GET /rest/entities/{id}. */
    read(actor: Actor, id: string): Promise<Entity>
  }
  health(): Promise<MailroomHealth>
}
