import {
  type AuthenticationInformations,
  AuthenticationInformationsSchema,
  type ExternalConnectionsResponse,
  ExternalConnectionsResponseSchema,
  fail,
  ImageQuerySchema,
  LanguagePathSchema,
  LanguageResponseSchema,
  type PasswordRulesResponse,
  PasswordRulesResponseSchema,
  type PinnedFoldersResponse,
  PinnedFoldersResponseSchema,
  VersionsUpdateSqlBodySchema,
  WEB_CLIENT_IMAGES,
  type WebClientImage,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { readImage, readLanguage } from '../web-client/index.js'
import { json, type RouteDeclaration } from './route-declaration.js'

const PUBLIC_NOTE =
  'Public, as in 20.10: the sign-in page asks for it before anyone signs in. It tells nothing of any user or record.'

const IMAGE_CONTENT = { schema: { type: 'string' as const, contentMediaType: 'image/*' } }

/**
 * What Maarch 20.10's web client asks around a session besides the tokens and the profile: its sign-in page's
 * information, language file and images (public, as in 20.10), the SQL update it triggers on load, the password
 * rules, the external connections and the pinned folders.
 */
export const sessionShellRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/rest/authenticationInformations',
    operationId: 'getAuthenticationInformations',
    tag: 'web client',
    summary: "The sign-in page's information",
    description: `${PUBLIC_NOTE} \`loginMessage\` is rendered as HTML by the client: only a safe subset of HTML is returned.`,
    security: 'public',
    responses: {
      '200': {
        description: "The application's name, the sign-in page's message, how users sign in",
        content: json(AuthenticationInformationsSchema, {
          instanceId: '0d6a4a8b8f7e4a0c9b3e6f1d2c5a7b90',
          applicationName: 'Mailroom',
          loginMessage: '<h3><strong>Bienvenue</strong></h3>',
          changeKey: false,
          authMode: 'standard',
          authUri: null,
          lang: 'fr',
        } satisfies AuthenticationInformations),
      },
    },
    errors: [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.sessionShell.authenticationInformations()
      },
  },
  {
    method: 'get',
    path: '/rest/languages/:lang',
    documentedPath: '/rest/languages/{lang}',
    operationId: 'getLanguage',
    tag: 'web client',
    summary: "The client's labels in a language",
    description: `${PUBLIC_NOTE} The file \`lang-{lang}.json\` of the operator's folder (MAILROOM_WEB_CLIENT_LANG_DIR); \`{"lang": []}\` when there is none, as 20.10 answers.`,
    security: 'public',
    request: { path: LanguagePathSchema },
    responses: {
      '200': {
        description: 'The labels by key',
        content: json(LanguageResponseSchema, { lang: { lang: 'Français', login: 'Identifiant' } }),
      },
    },
    errors: ['LANGUAGE_UNKNOWN'],
    serve:
      ({ webClient }) =>
      async (ctx) => {
        ctx.body = await readLanguage(webClient ?? {}, ctx.params.lang ?? '')
      },
  },
  {
    method: 'get',
    path: '/rest/images',
    operationId: 'getImage',
    tag: 'web client',
    summary: "An image of the client's sign-in page or menu",
    description: `${PUBLIC_NOTE} From the operator's folder (MAILROOM_WEB_CLIENT_IMAGES_DIR: \`logo\`, \`bodylogin\`, \`logo_only\`, as .svg, .png, .jpg or .webp), else Mailroom's own.`,
    security: 'public',
    request: { query: ImageQuerySchema },
    responses: {
      '200': {
        description: 'The image',
        content: { 'image/svg+xml': IMAGE_CONTENT, 'image/png': IMAGE_CONTENT, 'image/jpeg': IMAGE_CONTENT },
      },
    },
    errors: ['IMAGE_QUERY_INVALID'],
    serve:
      ({ webClient }) =>
      async (ctx) => {
        const image = ctx.query.image
        if (typeof image !== 'string' || !(WEB_CLIENT_IMAGES as readonly string[]).includes(image))
          fail('IMAGE_QUERY_INVALID')
        const file = await readImage(webClient ?? {}, image as WebClientImage)
        ctx.type = file.contentType
        ctx.set('Content-Disposition', `inline; filename=maarch${file.extension}`)
        // Opened on its own, an SVG is a document: it may show, never run anything.
        ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        ctx.set('Cache-Control', 'no-cache')
        ctx.body = file.bytes
      },
  },
  {
    method: 'put',
    path: '/rest/versionsUpdateSQL',
    operationId: 'updateSqlVersion',
    tag: 'web client',
    summary: 'Apply pending database updates (nothing to do)',
    description:
      'Public, as in 20.10, whose client calls it on every load. Mailroom applies its migrations when it starts: nothing is ever pending here, the answer is 204 and nothing is written.',
    security: 'public',
    request: { body: { schema: VersionsUpdateSqlBodySchema, example: {} } },
    responses: { '204': { description: 'Nothing to update' } },
    errors: [],
    serve: () => async (ctx) => {
      ctx.status = 204
    },
  },
  {
    method: 'get',
    path: '/rest/passwordRules',
    operationId: 'getPasswordRules',
    tag: 'web client',
    summary: 'The rules a new password must follow',
    description:
      'Public, as in 20.10 (the page that changes an expired password reads it): the policy, nothing of any user.',
    security: 'public',
    responses: {
      '200': {
        description: "The rules, as 20.10's password_rules rows",
        content: json(PasswordRulesResponseSchema, {
          rules: [{ id: 1, label: 'minLength', value: 12, enabled: true }],
        } satisfies PasswordRulesResponse),
      },
    },
    errors: [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = services.sessionShell.passwordRules()
      },
  },
  {
    method: 'get',
    path: '/rest/externalConnectionsEnabled',
    operationId: 'getExternalConnections',
    tag: 'web client',
    summary: 'The external services connected',
    description:
      'Mailroom connects to no signatory book nor Maileva: `{"connection": []}`, as 20.10 answers without them.',
    security: 'user',
    responses: {
      '200': {
        description: 'The connections',
        content: json(ExternalConnectionsResponseSchema, { connection: [] } satisfies ExternalConnectionsResponse),
      },
    },
    errors: [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = services.sessionShell.externalConnections(actorOf(ctx))
      },
  },
  {
    method: 'get',
    path: '/rest/pinnedFolders',
    operationId: 'getPinnedFolders',
    tag: 'web client',
    summary: "The caller's pinned folders",
    description: 'Mailroom has no pinned folders yet (GET /rest/folders says `pinned: false`): the list is empty.',
    security: 'user',
    responses: {
      '200': {
        description: 'The folders',
        content: json(PinnedFoldersResponseSchema, { folders: [] } satisfies PinnedFoldersResponse),
      },
    },
    errors: [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = services.sessionShell.pinnedFolders(actorOf(ctx))
      },
  },
]
