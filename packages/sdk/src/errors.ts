/** An error answered by a Mailroom server: the HTTP status and the `errors` (or `message`) text. */
export class MailroomApiError extends Error {
  override readonly name = 'MailroomApiError'
  /** HTTP status of the response. */
  readonly status: number
  /** The parsed error body, when it was JSON. */
  readonly body: unknown

  constructor(status: number, message: string, body: unknown) {
    super(message)
    this.status = status
    this.body = body
  }
}

/** The request did not complete: network failure, timeout or abort. */
export class MailroomNetworkError extends Error {
  override readonly name: string = 'MailroomNetworkError'

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

/** The request did not complete within its timeout. */
export class MailroomTimeoutError extends MailroomNetworkError {
  override readonly name: string = 'MailroomTimeoutError'
}
