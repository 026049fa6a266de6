/**
 * @module @mailroom/core
 * Domain rules of Mailroom with no I/O: schemas, the clause language, perimeter rules, the error catalogue
 * and the use cases, written against ports that storage adapters implement.
 */

export type { Actor, ActorEntity, ActorGroup, UserMode } from './actors/actor.js'
export { displayName, isRoot, primaryEntityOf } from './actors/actor.js'
export * from './api/index.js'
export type { ActingMailroom, BoundServices } from './application/bind-actor.js'
export { actAs } from './application/bind-actor.js'
export type { MailroomHealth, MailroomServices } from './application/mailroom-services.js'
export type { AuthDependencies, AuthService, AuthSettings, SessionTokens } from './auth/auth-service.js'
export { createAuthService, DEFAULT_AUTH_SETTINGS } from './auth/auth-service.js'
export type {
  AuthThrottle,
  Clock,
  IdGenerator,
  PasswordHasher,
  ThrottleCounter,
  TokenClaims,
  TokenSigner,
  UserCredentials,
  UserRepository,
} from './auth/ports.js'
export type { ThrottlePolicy } from './auth/throttle-policy.js'
export { DEFAULT_THROTTLE_POLICY } from './auth/throttle-policy.js'
export type { ContentServices } from './content/content-services.js'
export * from './content/index.js'
export type { Entity, EntityRow } from './entities/entity.js'
export { EntityIdSchema, EntityResponseSchema, EntitySchema } from './entities/entity.js'
export type { EntityRepository } from './entities/ports.js'
export { fullNameOf, readEntity } from './entities/read-entity.js'
export { ERROR_CATALOGUE } from './errors/catalogue/index.js'
export type { ErrorArgs, ErrorCode } from './errors/domain-error.js'
export { DomainError, domainError, errorMessage, fail, isDomainError } from './errors/domain-error.js'
export type { ErrorDefinition, ErrorKind } from './errors/error-definition.js'
export * from './journal/index.js'
export type { JournalReading, JournalServices } from './journal/journal-services.js'
export type {
  AuthenticationMethod,
  AuthObserver,
  ConversionObserver,
  ConversionRoute,
  HttpObserver,
  HttpRequestObservation,
  MailroomObserver,
  OperationalStatistics,
  ThrottleScope,
} from './observability/ports.js'
export * from './organisation/index.js'
export * from './records/index.js'
export * from './search/index.js'
export type { SearchServices } from './search/search-services.js'
export * from './status/index.js'
