import { z } from 'zod'

/** Body of `POST /rest/authenticate`. */
export const AuthenticateBodySchema = z
  .object({
    login: z.string().min(1).describe('User login (case-insensitive)'),
    password: z.string().min(1).describe('User password'),
  })
  .meta({ id: 'AuthenticateRequest', description: 'Credentials exchanged for a bearer token and a refresh token' })

/** Body of `POST /rest/authenticate`. */
export type AuthenticateBody = z.input<typeof AuthenticateBodySchema>

/** Response headers of a successful `POST /rest/authenticate` (204, no body). */
export const AuthenticateResponseHeadersSchema = z
  .object({
    Token: z.string().describe('Bearer token (JWT, HS256), valid 30 minutes'),
    'Refresh-Token': z
      .string()
      .describe('Refresh token (JWT), valid 7 days; exchange it at GET /rest/authenticate/token'),
  })
  .meta({ description: 'Tokens issued by POST /rest/authenticate' })

/** Query of `GET /rest/authenticate/token`. */
export const RefreshTokenParamsSchema = z
  .object({ refreshToken: z.string().describe('A Refresh-Token issued by POST /rest/authenticate') })
  .meta({ description: 'Query of GET /rest/authenticate/token' })

/** Body of a successful `GET /rest/authenticate/token`. */
export const RefreshTokenResponseSchema = z
  .object({ token: z.string().describe('A new bearer token, valid 30 minutes') })
  .meta({ id: 'RefreshTokenResponse', description: 'A fresh bearer token' })

/** Body of a successful `GET /rest/authenticate/token`. */
export type RefreshTokenResponse = z.infer<typeof RefreshTokenResponseSchema>

/** Body of `GET /rest/authenticate/oidc`: the identity provider the console offers (Mailroom extension). */
export const IdentityProviderOfferSchema = z
  .object({
    providerName: z.string().describe('The name on the console’s sign-in button'),
    signInPath: z.string().describe('Where the browser goes to sign in at the provider'),
  })
  .meta({ id: 'IdentityProviderOffer', description: 'The identity provider the console offers for signing in' })

/** Body of `GET /rest/authenticate/oidc`. */
export type IdentityProviderOffer = z.infer<typeof IdentityProviderOfferSchema>
