import type { HelmetOptions } from 'helmet'
import type { Context, Next } from 'koa'
import koaHelmet from 'koa-helmet'
import { CONSOLE_PATH } from '../console/serve-console.js'
import { WEB_CLIENT_PATH } from '../web-client/serve-web-client.js'

/** The security headers an operator may tune (docs/security.md#security-headers). */
export interface SecurityHeaderSettings {
  /** `Strict-Transport-Security` max-age in seconds, for a server reached over HTTPS only; 0 or absent: not sent. */
  readonly hstsMaxAgeSeconds?: number
  /** `Referrer-Policy` of every answer (default `no-referrer`); false: not sent. */
  readonly referrerPolicy?: ReferrerPolicyToken | false
  /** `X-Content-Type-Options: nosniff` on every answer (default true). */
  readonly noSniff?: boolean
  /** Pages allowed to frame the console (CSP `frame-ancestors` sources, default none: `'none'`). */
  readonly consoleFrameAncestors?: readonly string[]
}

/** The values `Referrer-Policy` takes. */
export const REFERRER_POLICIES = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'same-origin',
  'origin',
  'strict-origin',
  'origin-when-cross-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
] as const

/** One of {@link REFERRER_POLICIES}. */
export type ReferrerPolicyToken = (typeof REFERRER_POLICIES)[number]

/**
 * What the console's pages may load: only this origin, plus blob: and data: images (the PDF is drawn from a
 * Blob) and pdf.js's worker. Nothing inline runs or applies (no inline script, no style element or attribute
 * from markup: the console and pdf.js set styles through the CSSOM, which the policy does not govern), and no
 * WebAssembly is compiled (the console ships none of pdf.js's optional decoders), so an injected string cannot
 * run or restyle the page.
 */
function consoleDirectives(frameAncestors: readonly string[]) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    imgSrc: ["'self'", 'blob:', 'data:'],
    styleSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    frameAncestors: frameAncestors.length === 0 ? ["'none'"] : [...frameAncestors],
  }
}

/**
 * What Maarch 20.10's web client needs, found by driving it in Chromium and watching the violations: its own
 * scripts, styles and fonts; inline styles (Angular writes its components' styles as style elements, and its
 * templates set style attributes); blob: and data: images (the PDF drawn from a Blob, inline icons); pdf.js's
 * worker from a blob: or its own file; the API on this origin. No inline script, no eval, no other origin.
 */
export const WEB_CLIENT_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'unsafe-eval'"],
  workerSrc: ["'self'", 'blob:'],
  imgSrc: ["'self'", 'blob:', 'data:'],
  styleSrc: ["'self'", "'unsafe-inline'"],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
}

/**
 * Sets the security headers of every answer in one place, before anything else runs, so JSON bodies, files,
 * error answers (401, 404, 500…) and /digitalSafe carry them alike: `X-Content-Type-Options: nosniff`, a
 * `Referrer-Policy`, HSTS when configured, and on the console's paths (GET and HEAD alike) its
 * Content-Security-Policy (and on the web client's, its own). Helmet writes them; every other header of helmet's is off, as the API answers
 * other origins' callers (CORS) and serves files meant to be opened.
 */
export function securityHeaders(settings: SecurityHeaderSettings = {}) {
  const hsts = settings.hstsMaxAgeSeconds ?? 0
  const base: HelmetOptions = {
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: settings.referrerPolicy === false ? false : { policy: settings.referrerPolicy ?? 'no-referrer' },
    strictTransportSecurity: hsts > 0 ? { maxAge: hsts, includeSubDomains: false } : false,
    xContentTypeOptions: settings.noSniff ?? true,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  }
  const api = koaHelmet(base)
  const consolePages = koaHelmet({
    ...base,
    contentSecurityPolicy: { useDefaults: false, directives: consoleDirectives(settings.consoleFrameAncestors ?? []) },
  })
  const webClientPages = koaHelmet({
    ...base,
    contentSecurityPolicy: { useDefaults: false, directives: WEB_CLIENT_DIRECTIVES },
  })
  return (ctx: Context, next: Next) => {
    if (under(ctx.path, CONSOLE_PATH)) return consolePages(ctx, next)
    if (under(ctx.path, WEB_CLIENT_PATH)) return webClientPages(ctx, next)
    return api(ctx, next)
  }
}

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`)
}
