/** Default body limit: 64 MiB, enough for a base64-encoded file of about 48 MB. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024 * 1024
