/**
 * Zod schemas of the wire formats (request bodies, parameters, responses, error bodies) that the OpenAPI
 * document is generated from and the SDK's types are inferred from. Capability schemas are reused here
 * under a component name rather than written twice.
 */
export * from './auth-schemas.js'
export * from './content-schemas.js'
export * from './entity-schemas.js'
export * from './error-body-schema.js'
export * from './health-schemas.js'
export * from './journal-schemas.js'
export * from './journal-verification-schemas.js'
export * from './organisation-schemas.js'
export * from './record-schemas.js'
export * from './search-schemas.js'
export * from './status-schemas.js'
export * from './version-schemas.js'
