import bwipjs from 'bwip-js'
import type { ChronoPictureKind, ChronoPictures } from './chrono-pictures.js'

/**
 * What the reference's QR code holds: a JSON object `chrono`, `resIdMaster`, `resId`, `title`, written as
 * PHP's json_encode writes it (`/` as `\/`, non-ASCII as `\uXXXX`), so that readers built for the
 * reference's codes read Mailroom's byte for byte. For a record: `resIdMaster` is its id, `resId` null (an
 * attachment's own id in the reference), `title` its subject. The reference's optional `MAARCH_` prefix
 * (parameter QrCodePrefix, off by default) is not offered.
 */
export function chronoQrCodeText(fields: {
  chrono: string
  resIdMaster: number | null
  resId: number | null
  title: string | null
}): string {
  const json = JSON.stringify({
    chrono: fields.chrono,
    resIdMaster: fields.resIdMaster,
    resId: fields.resId,
    title: fields.title,
  })
  return json.replace(/[/\u0080-\uffff]/g, (c) =>
    c === '/' ? '\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/**
 * Renders the pictures an office file asks for: the QR code of `qrCodeText`, and the chrono as a Code 128
 * barcode with its text underneath (as the reference's PiBarCode draws it). A record without a chrono gets
 * no barcode (its tagged pictures keep their image); a chrono Code 128 cannot carry (characters outside
 * ASCII) neither. Both are opaque (white behind the black), so they read on any page colour, quiet zone
 * included.
 */
export async function renderChronoPictures(
  kinds: ReadonlySet<ChronoPictureKind>,
  values: { chrono: string; qrCodeText: string },
): Promise<ChronoPictures> {
  const pictures: { -readonly [K in ChronoPictureKind]?: Uint8Array } = {}
  if (kinds.has('qrCode')) {
    // eclevel is a symbology option bwip-js passes on but does not declare.
    const qrCode = {
      bcid: 'qrcode',
      text: values.qrCodeText,
      eclevel: 'M',
      scale: 4,
      paddingwidth: 4,
      paddingheight: 4,
      backgroundcolor: 'FFFFFF',
    }
    pictures.qrCode = new Uint8Array(await bwipjs.toBuffer(qrCode))
  }
  // Code 128 sets A and B cover ASCII; bwip-js would read anything else as Latin-1 bytes.
  if (kinds.has('barCode') && values.chrono !== '' && /^[\x20-\x7e]+$/.test(values.chrono)) {
    pictures.barCode = new Uint8Array(
      await bwipjs.toBuffer({
        bcid: 'code128',
        text: values.chrono,
        scale: 2,
        height: 12,
        includetext: true,
        textxalign: 'center',
        paddingwidth: 6,
        paddingheight: 4,
        backgroundcolor: 'FFFFFF',
      }),
    )
  }
  return pictures
}
