import type { Context } from 'koa'

/**
 * Whether a request was sent by a web page (its script's fetch or XMLHttpRequest, an image, a frame) rather than
 * typed in the address bar or sent by a program (curl, a capture tool, a Node or Python client). A `Basic`
 * challenge on a page's request makes the browser open its own password box over the page, which then waits on
 * it (Maarch 20.10's web client stays blank): such a request is challenged with `Bearer` instead. The signals,
 * either of them:
 * - `Sec-Fetch-Dest` other than `document`: every current browser sends it on every request (Chrome 80,
 *   Firefox 90, Safari 16.4), and no page script can forge or remove it. (`Sec-Fetch-Mode` alone is no signal:
 *   Node's own fetch sends `Sec-Fetch-Mode: cors`, and its programs keep their Basic challenge.)
 * - `X-Requested-With` (jQuery, older frameworks), for the browsers before those.
 * An address typed in the bar (`document`) keeps its Basic challenge: a person reading the API in a browser may
 * sign in with its box.
 */
export function isPageRequest(ctx: Context): boolean {
  const dest = ctx.get('sec-fetch-dest')
  return (dest !== '' && dest !== 'document') || ctx.get('x-requested-with') !== ''
}
