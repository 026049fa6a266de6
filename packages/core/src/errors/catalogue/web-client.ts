import { WEB_CLIENT_LANGUAGES } from '../../api/session-shell-schemas.js'
import { defineErrors } from '../error-definition.js'

/** Errors of the files 20.10's web client reads before sign-in (its language and its images). */
export const WEB_CLIENT_ERRORS = defineErrors({
  LANGUAGE_UNKNOWN: {
    kind: 'bad-request',
    message: `Language is not one of ${WEB_CLIENT_LANGUAGES.join(', ')}`,
  },
  // 20.10's answer to GET /rest/images without a known image (CoreController::getImages).
  IMAGE_QUERY_INVALID: { kind: 'not-found', message: 'QueryParams image is empty or not valid' },
  // A route of 20.10's interface (the client may call it) that Mailroom has no operation for yet: named, so that
  // what is missing is plain in the client's console and the server's log, where a 404 would say nothing.
  ROUTE_NOT_SERVED_YET: {
    kind: 'not-implemented',
    message: ({ route }: { route: string }) => `${route} is a route of Maarch 20.10 not served by Mailroom yet`,
  },
})
