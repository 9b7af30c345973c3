/** Time as the domain sees it; tests move it forward instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A calendar day as the domain counts days (UTC), and its year. */
export interface Today { date: string; year: number }
/** The UTC day `now` falls on: cover dates, due dates and "not in the future" checks all count by it. */
export const todayOf = (now: Date): Today => ({ date: now.toISOString().slice(0, 10), year: now.getUTCFullYear() });
