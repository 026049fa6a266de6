import type { Actor } from '../actors/actor.js'
import type {
  AuthenticationInformations,
  ExternalConnectionsResponse,
  PasswordRulesResponse,
  PinnedFoldersResponse,
} from '../api/session-shell-schemas.js'
import type { ParameterRepository } from '../parameters/ports.js'
import { safeHtml } from './safe-html.js'

/** What the shell of 20.10's web client asks before and around a session, besides the tokens and the profile. */
export interface SessionShellServices {
  /** `GET /rest/authenticationInformations`: public, it says nothing of any user or record. */
  authenticationInformations(): Promise<AuthenticationInformations>
  /** `GET /rest/passwordRules`: public in 20.10 (the password-change page of an expired password). */
  passwordRules(): PasswordRulesResponse
  /** `GET /rest/externalConnectionsEnabled`: Mailroom connects to no signatory book nor Maileva. */
  externalConnections(actor: Actor): ExternalConnectionsResponse
  /** `GET /rest/pinnedFolders`: Mailroom has no pinned folders (GET /rest/folders says `pinned: false`). */
  pinnedFolders(actor: Actor): PinnedFoldersResponse
}

/** The settings the shell answers with. */
export interface SessionShellSettings {
  /** The installation's id the client keys its storage by: stable, and revealing nothing (32 hex digits). */
  readonly instanceId: string
  readonly applicationName: string
  /** The client's language (a code of WEB_CLIENT_LANGUAGES). */
  readonly language: string
  /** The shortest password accepted (the password policy's). */
  readonly passwordMinLength: number
}

/** The shell's answers over the parameters (the sign-in page's message) and the settings. */
export function createSessionShell(
  parameters: ParameterRepository,
  settings: SessionShellSettings,
): SessionShellServices {
  return {
    async authenticationInformations() {
      const message = (await parameters.find('loginpage_message'))?.param_value_string
      return {
        instanceId: settings.instanceId,
        applicationName: settings.applicationName,
        loginMessage: message ? safeHtml(message) : null,
        changeKey: false,
        authMode: 'standard',
        authUri: null,
        lang: settings.language,
      }
    },
    passwordRules: () => ({
      rules: [{ id: 1, label: 'minLength', value: settings.passwordMinLength, enabled: true }],
    }),
    externalConnections: () => ({ connection: [] }),
    pinnedFolders: () => ({ folders: [] }),
  }
}
