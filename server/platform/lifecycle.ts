/**
 * Whether this instance is shutting down (SIGTERM or SIGINT received): from then on readiness
 * answers 503 and a new request is refused with 503 and Retry-After (server/app/shutdown.ts),
 * while the requests already in flight finish.
 */
export class Lifecycle {
  private reason: string | undefined;

  /** Marks the shutdown begun, for `reason` (the signal); the first reason stays. */
  beginShutdown(reason: string): void { this.reason ??= reason; }

  /** What began the shutdown, or undefined while the instance serves. */
  get shuttingDown(): string | undefined { return this.reason; }
}
