import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library'
import { PNG } from 'pngjs'

/** Reads the barcode or QR code of a PNG (tests' own reader: zxing, independent of the renderer). */
export function readCode(png: Uint8Array, format: 'qrCode' | 'code128'): string {
  const image = PNG.sync.read(Buffer.from(png))
  const luminances = new Uint8ClampedArray(image.width * image.height)
  for (let i = 0; i < luminances.length; i++) {
    const [r, g, b, a] = [image.data[i * 4] ?? 0, image.data[i * 4 + 1] ?? 0, image.data[i * 4 + 2] ?? 0, image.data[i * 4 + 3] ?? 255]
    // Over white paper, as a scanner sees it.
    luminances[i] = ((r * 299 + g * 587 + b * 114) / 1000) * (a / 255) + 255 * (1 - a / 255)
  }
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminances, image.width, image.height)))
  const decode = (pure: boolean) => {
    const hints = new Map<DecodeHintType, unknown>([
      [DecodeHintType.POSSIBLE_FORMATS, [format === 'qrCode' ? BarcodeFormat.QR_CODE : BarcodeFormat.CODE_128]],
      [DecodeHintType.TRY_HARDER, true],
    ])
    if (pure) hints.set(DecodeHintType.PURE_BARCODE, true)
    return new MultiFormatReader().decode(bitmap, hints).getText()
  }
  // zxing-js's QR detector misses some perfectly drawn codes (its grid sampler gives up on a few module
  // patterns); a picture that is only the code reads as a pure one. A code on a rendered page does not.
  try {
    return decode(false)
  } catch (error) {
    if (format !== 'qrCode') throw error
    return decode(true)
  }
}
