/** Thrown when the step is cancelled (SIGINT or SIGTERM from the runner), wherever it stood. */
export class Cancelled extends Error {
  constructor(
    /**
     * True when the bytes of a request had left when the cancel came: a create or a follow-up may
     * then have taken effect. False between requests, and before a request reached the wire.
     */
    readonly requestSent: boolean
  ) {
    super('cancelled')
    this.name = 'Cancelled'
  }
}
