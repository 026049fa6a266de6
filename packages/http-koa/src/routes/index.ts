import { openApiRoute } from '../openapi/openapi-routes.js'
import { adminRoutes } from './admin-routes.js'
import { authRoutes } from './auth-routes.js'
import { chainVerificationRoute } from './chain-verification-routes.js'
import { contactsRoutes } from './contacts-routes.js'
import { contentRoutes } from './content-routes.js'
import { createRouters, type Routers } from './create-routers.js'
import { criteriaSearchRoutes } from './criteria-search-routes.js'
import { entityRoute } from './entity-routes.js'
import { healthRoutes } from './health-routes.js'
import { DIGITAL_SAFE_FALLBACK_PATH, digitalSafeFallback, journalRoute } from './journal-routes.js'
import { metricsRoute } from './metrics-routes.js'
import { oidcSignInRoutes } from './oidc-sign-in-routes.js'
import { recordsRoutes } from './records-routes.js'
import type { RouteDeclaration, RouteDependencies } from './route-declaration.js'
import { searchRoute } from './search-routes.js'
import { statusRoutes } from './status-routes.js'

/** Every route Mailroom serves, in the order of the OpenAPI document. A new route module adds its declarations here. */
export const ROUTES: readonly RouteDeclaration[] = [
  ...adminRoutes,
  ...healthRoutes,
  metricsRoute,
  openApiRoute,
  ...authRoutes,
  ...oidcSignInRoutes,
  ...recordsRoutes,
  searchRoute,
  ...criteriaSearchRoutes,
  ...contentRoutes,
  ...statusRoutes,
  entityRoute,
  ...contactsRoutes,
  journalRoute,
  chainVerificationRoute,
]

/** The routers of {@link ROUTES}, with the /digitalSafe fallback after the journal route. */
export function createMailroomRouters(dependencies: RouteDependencies): Routers {
  const routers = createRouters(ROUTES, dependencies)
  routers.publicRouter.all(DIGITAL_SAFE_FALLBACK_PATH, digitalSafeFallback)
  return routers
}
