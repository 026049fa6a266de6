import { mailroomVitestConfig } from '../../vitest.shared.ts'

export default mailroomVitestConfig({
  databases: 'both',
  // Pure code and file or LibreOffice work: nothing here depends on the database kind.
  databaseFree: [
    'src/records/merge-chrono/**/*.test.ts',
    'src/records/insert-record-statement.test.ts',
    'src/records/reference-cache.test.ts',
    'src/journal/random-pool.test.ts',
    'src/content/file-reader-pool.test.ts',
    'src/content/stored-file.test.ts',
    'src/content/pdf-converter.test.ts',
    'src/content/concurrency-limit.test.ts',
    'src/content/watermark-pdf.test.ts',
    'src/content/watermark-cache.test.ts',
    'src/content/sniff-mime-type.test.ts',
    'src/content/libreoffice-converter.test.ts',
    'src/search/original-files.test.ts',
    'src/docserver/document-writer.test.ts',
    'src/docserver/folder-syncs.test.ts',
    'src/security/scrypt-password-hasher.test.ts',
    'src/security/hmac-token-signer.test.ts',
  ],
})
