import type { ChronoMerger } from '@mailroom/core'
import { chronoQrCodeText, renderChronoPictures } from './chrono-images.js'
import { prepareChronoMerge } from './merge-chrono-document.js'

/**
 * The chrono merge of office files (docx, odt, xlsx…): the placeholder takes the record's chrono, tagged
 * pictures become its barcode and QR code (reference §2.2).
 */
export const officeChronoMerger: ChronoMerger = {
  prepare(format, bytes) {
    const merge = prepareChronoMerge(format, bytes)
    if (merge === null) return null
    return {
      needsRecordId: merge.pictures.has('qrCode'),
      async fill({ chrono, resIdMaster, title }) {
        const qrCodeText = chronoQrCodeText({ chrono, resIdMaster, resId: null, title })
        return merge.fill(chrono, await renderChronoPictures(merge.pictures, { chrono, qrCodeText }))
      },
    }
  },
}
