import type { WebClientImage } from '@mailroom/core'

/**
 * Mailroom's own images for 20.10's sign-in page and menu, served when the operator supplies none (Maarch's
 * are the publisher's: never shipped). Plain SVG: no script, no external reference.
 */
const ENVELOPE =
  '<rect x="4" y="10" width="40" height="28" rx="3" fill="#2a8fc4"/><path d="M6 13l18 14 18-14" fill="none" stroke="#fff" stroke-width="3" stroke-linejoin="round"/>'

export const DEFAULT_IMAGES: Readonly<Record<WebClientImage, string>> = {
  logo: `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="48" viewBox="0 0 240 48">${ENVELOPE}<text x="54" y="33" font-family="sans-serif" font-size="26" font-weight="bold" fill="#2a8fc4">Mailroom</text></svg>`,
  onlyLogo: `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">${ENVELOPE}</svg>`,
  loginPage:
    '<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080" viewBox="0 0 1920 1080"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b2f42"/><stop offset="1" stop-color="#1d6a8f"/></linearGradient></defs><rect width="1920" height="1080" fill="url(#g)"/></svg>',
}
