/**
 * What the tests of `@mailroom/storage` borrow from the rooms built on top of it. Storage cannot depend on
 * documents or mailroom (they depend on it); its tests reach them through this one file, which names every
 * such borrowing.
 */
import { mimeTypeSniffer, officeChronoMerger, pdfWatermarker } from '@mailroom/documents'
import type { StorageContext } from '@mailroom/storage'

export { CHRONO_PLACEHOLDER, ConversionService } from '@mailroom/documents'
export { createMailroom, ScryptPasswordHasher } from '@mailroom/mailroom'

/** The document ports createMailroom plugs into a StorageContext, for tests that build one by hand. */
export const DOCUMENT_PORTS: Pick<StorageContext, 'sniffer' | 'watermarker' | 'chronoMerger'> = {
  sniffer: mimeTypeSniffer,
  watermarker: pdfWatermarker,
  chronoMerger: officeChronoMerger,
}
