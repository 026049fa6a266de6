import { openApiRoute } from '../openapi/openapi-routes.js'
import { actionsRoutes } from './actions-routes.js'
import { adminRoutes } from './admin-routes.js'
import { attachmentsRoutes } from './attachments-routes.js'
import { authRoutes } from './auth-routes.js'
import { basketsRoutes } from './baskets-routes.js'
import { chainVerificationRoute } from './chain-verification-routes.js'
import { contactsRoutes } from './contacts-routes.js'
import { contentRoutes } from './content-routes.js'
import { createRouters, type Routers } from './create-routers.js'
import { criteriaSearchRoutes } from './criteria-search-routes.js'
import { diffusionListRoute } from './diffusion-list-routes.js'
import { doctypeRoutes } from './doctype-routes.js'
import { entityListRoute, entityRoute } from './entity-routes.js'
import { folderRoutes } from './folder-routes.js'
import { healthRoutes } from './health-routes.js'
import { indexingModelRoutes } from './indexing-model-routes.js'
import { DIGITAL_SAFE_FALLBACK_PATH, digitalSafeFallback, journalRoute } from './journal-routes.js'
import { letterPageRoutes } from './letter-page-routes.js'
import { linksRoutes } from './links-routes.js'
import { listTemplateRoutes } from './list-template-routes.js'
import { metricsRoute } from './metrics-routes.js'
import { notesRoutes } from './notes-routes.js'
import { oidcSignInRoutes } from './oidc-sign-in-routes.js'
import { parameterRoutes } from './parameter-routes.js'
import { processingPageRoutes } from './processing-page-routes.js'
import { recordsRoutes } from './records-routes.js'
import { referenceListRoutes } from './reference-list-routes.js'
import type { RouteDeclaration, RouteDependencies } from './route-declaration.js'
import { searchRoute } from './search-routes.js'
import { sessionShellRoutes } from './session-shell-routes.js'
import { statusRoutes } from './status-routes.js'
import { userRoutes } from './user-routes.js'

/** Every route Mailroom serves, in the order of the OpenAPI document. A new route module adds its declarations here. */
export const ROUTES: readonly RouteDeclaration[] = [
  ...adminRoutes,
  ...healthRoutes,
  metricsRoute,
  openApiRoute,
  ...authRoutes,
  ...sessionShellRoutes,
  ...oidcSignInRoutes,
  ...recordsRoutes,
  searchRoute,
  ...criteriaSearchRoutes,
  ...contentRoutes,
  ...attachmentsRoutes,
  ...statusRoutes,
  entityListRoute,
  ...notesRoutes,
  ...linksRoutes,
  ...letterPageRoutes,
  ...basketsRoutes,
  diffusionListRoute,
  ...listTemplateRoutes,
  ...actionsRoutes,
  entityRoute,
  ...contactsRoutes,
  ...doctypeRoutes,
  ...referenceListRoutes,
  // Before the indexing models' routes: /rest/indexingModels/entities is not /rest/indexingModels/:id.
  ...processingPageRoutes,
  ...indexingModelRoutes,
  ...folderRoutes,
  ...userRoutes,
  ...parameterRoutes,
  journalRoute,
  chainVerificationRoute,
]

/** The routers of {@link ROUTES}, with the /digitalSafe fallback after the journal route. */
export function createMailroomRouters(dependencies: RouteDependencies): Routers {
  const routers = createRouters(ROUTES, dependencies)
  routers.publicRouter.all(DIGITAL_SAFE_FALLBACK_PATH, digitalSafeFallback)
  return routers
}
