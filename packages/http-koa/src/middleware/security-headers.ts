import type { HelmetOptions } from 'helmet'
import type { Context, Next } from 'koa'
import koaHelmet from 'koa-helmet'
import { CONSOLE_PATH } from '../console/serve-console.js'

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
 * Sets the security headers of every answer in one place, before anything else runs, so JSON bodies, files,
 * error answers (401, 404, 500…) and /digitalSafe carry them alike: `X-Content-Type-Options: nosniff`, a
 * `Referrer-Policy`, HSTS when configured, and on the console's paths (GET and HEAD alike) its
 * Content-Security-Policy. Helmet writes them; every other header of helmet's is off, as the API answers
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
  return (ctx: Context, next: Next) =>
    ctx.path === CONSOLE_PATH || ctx.path.startsWith(`${CONSOLE_PATH}/`) ? consolePages(ctx, next) : api(ctx, next)
}
