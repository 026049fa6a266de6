import { z } from 'zod'
import { FolderSummarySchema } from './reference-schemas.js'

/** Body of `GET /rest/authenticationInformations`: what 20.10's sign-in page shows before anyone signs in. */
export const AuthenticationInformationsSchema = z
  .object({
    instanceId: z
      .string()
      .describe("The installation's id: the web client prefixes its localStorage keys with it (32 hex digits)"),
    applicationName: z.string().describe("The application's name, the page's title"),
    loginMessage: z
      .string()
      .nullable()
      .describe(
        'The `loginpage_message` parameter, which the client renders as HTML: only a safe subset of HTML is kept (no script, no event attribute, links http(s) and mailto only)',
      ),
    changeKey: z.boolean().describe('Whether the installation still signs with a default key: never in Mailroom'),
    authMode: z.literal('standard').describe('How users sign in from the client: with a login and password'),
    authUri: z.null().describe('The external sign-in page of other modes: none'),
    lang: z.string().describe("The client's language"),
  })
  .meta({ id: 'AuthenticationInformations' })
/** Body of `GET /rest/authenticationInformations`. */
export type AuthenticationInformations = z.infer<typeof AuthenticationInformationsSchema>

/** One password rule as 20.10's `password_rules` row. */
export const PasswordRuleSchema = z.object({
  id: z.number().int(),
  label: z.string().describe('minLength, complexityUpper, complexityNumber, complexitySpecial, …'),
  value: z.number().int(),
  enabled: z.boolean(),
})

/** Body of `GET /rest/passwordRules`. */
export const PasswordRulesResponseSchema = z
  .object({ rules: z.array(PasswordRuleSchema) })
  .meta({ id: 'PasswordRules' })
/** Body of `GET /rest/passwordRules`. */
export type PasswordRulesResponse = z.infer<typeof PasswordRulesResponseSchema>

/** Body of `GET /rest/externalConnectionsEnabled`. */
export const ExternalConnectionsResponseSchema = z
  .object({
    connection: z
      .union([z.array(z.unknown()).max(0), z.record(z.string(), z.literal(true))])
      .describe(
        'The external services connected (a signatory book, Maileva), by name; `[]` when none, as 20.10 prints an empty one',
      ),
  })
  .meta({ id: 'ExternalConnections' })
/** Body of `GET /rest/externalConnectionsEnabled`. */
export type ExternalConnectionsResponse = z.infer<typeof ExternalConnectionsResponseSchema>

/** Body of `GET /rest/pinnedFolders`. */
export const PinnedFoldersResponseSchema = z
  .object({
    folders: z.array(FolderSummarySchema).describe("The folders the caller pinned to the client's menu"),
  })
  .meta({ id: 'PinnedFolders' })
/** Body of `GET /rest/pinnedFolders`. */
export type PinnedFoldersResponse = z.infer<typeof PinnedFoldersResponseSchema>

/** The language codes of 20.10's language files (`src/lang/lang-{code}.json`): the only ones asked for. */
export const WEB_CLIENT_LANGUAGES = ['fr', 'en', 'nl'] as const
/** One of {@link WEB_CLIENT_LANGUAGES}. */
export type WebClientLanguage = (typeof WEB_CLIENT_LANGUAGES)[number]

/** Path of `GET /rest/languages/{lang}`. */
export const LanguagePathSchema = z
  .object({ lang: z.string().describe(`A language code: ${WEB_CLIENT_LANGUAGES.join(', ')}`) })
  .meta({ description: 'The language asked for' })

/** Body of `GET /rest/languages/{lang}`: the labels by key, or `[]` when the installation has no file for it. */
export const LanguageResponseSchema = z
  .object({ lang: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()).max(0)]) })
  .meta({ id: 'WebClientLanguage' })
/** Body of `GET /rest/languages/{lang}`. */
export type LanguageResponse = z.infer<typeof LanguageResponseSchema>

/** The images 20.10's sign-in page and menu ask `GET /rest/images` for. */
export const WEB_CLIENT_IMAGES = ['logo', 'loginPage', 'onlyLogo'] as const
/** One of {@link WEB_CLIENT_IMAGES}. */
export type WebClientImage = (typeof WEB_CLIENT_IMAGES)[number]

/** Query of `GET /rest/images`. */
export const ImageQuerySchema = z.object({
  image: z.string().describe(`Which image: ${WEB_CLIENT_IMAGES.join(', ')}`),
})

/** Body of `PUT /rest/versionsUpdateSQL`: the client sends `{}`; anything else is ignored. */
export const VersionsUpdateSqlBodySchema = z.object({}).meta({ id: 'VersionsUpdateSqlBody' })
