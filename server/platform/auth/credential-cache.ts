import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../db/database.js';

/** The channel on which the database announces changes to credentials (migration 022's triggers). */
export const CREDENTIALS_CHANNEL = 'coverline_credentials';

/** At most this many callers' credentials are kept (an Api-Key with a token is one entry). */
const MAX_ENTRIES = 50_000;
/**
 * How long an entry may serve without being read again from the database. Not what keeps it
 * right (the notices do that, at once): a bound in case a notice is ever lost unseen.
 */
const MAX_AGE_MS = 5 * 60_000;

interface Entry { value: unknown; tags: readonly string[] }

/**
 * What authenticating a request reads from the database (an Api-Key's tenant, whether a token is
 * revoked, its client's or staff member's session), kept between requests so that a request
 * costs no round trip for it.
 *
 * Kept right by the database itself: every change that can end a credential, whoever makes it,
 * sends a NOTIFY naming a tag at commit (migration 022), and an entry carrying that tag is dropped
 * as the notice arrives, on every instance. Entries are kept only while the notices are being
 * received: when the listening connection is lost everything is dropped and each request reads
 * the database again, until listening resumes. A load that raced a notice (read before the change
 * committed, finished after the notice came) is answered but not kept.
 *
 * On the instance that made the change, the code that made it also calls `forget` once it has
 * committed, so its own next request never depends on how fast the notice travels.
 */
export class CredentialCache {
  private readonly entries = new LRUCache<string, Entry>({
    max: MAX_ENTRIES,
    ttl: MAX_AGE_MS,
    dispose: (entry, key) => this.untag(key, entry.tags),
  });
  private readonly byTag = new Map<string, Set<string>>();
  /** Counts the notices (and local forgets) seen. */
  private generation = 0;
  /** The last notice of each tag (its generation), so a load can tell whether one of its own came while it ran. */
  private readonly lastNotice = new Map<string, number>();
  /** Everything up to this generation is forgotten by `lastNotice` (dropped all at once, or the oldest let go). */
  private forgottenUpTo = 0;
  private listening = false;
  /** Whether it was started with a change feed (without one it keeps nothing, by design). */
  private fed = false;
  private stop?: () => Promise<void>;
  /** Who waits for which notice (`noticed`). */
  private readonly waiting = new Map<string, () => void>();
  /** Reads answered from what was kept, reads that went to the database, entries dropped by a notice or a lost listener (metrics read them). */
  readonly counts = { hits: 0, misses: 0, drops: 0 };

  /** Starts receiving the database's notices; until then (and without a feed) nothing is kept. */
  async start(feed: ChangeFeed | undefined): Promise<void> {
    if (!feed) return;
    this.fed = true;
    this.stop = await feed.listen(CREDENTIALS_CHANNEL, {
      notice: (tag) => {
        this.forget(tag);
        this.waiting.get(tag)?.();
        this.waiting.delete(tag);
      },
      listening: (on) => {
        this.listening = on;
        if (!on) this.clear();
      },
    });
  }

  async close(): Promise<void> {
    await this.stop?.();
    this.clear();
  }

  /**
   * Resolves when the notice `tag` arrives. Notices come in the order their transactions
   * committed, so once a notice sent now arrives every change committed before it has been seen:
   * a barrier (tests that change credentials in the database directly use it before their next request).
   */
  noticed(tag: string): Promise<void> {
    return new Promise((resolve) => { this.waiting.set(tag, resolve); });
  }

  /** Whether it keeps credentials at all: started with a change feed (then `active` says whether notices arrive now). */
  get enabled(): boolean { return this.fed; }

  /** Whether entries are being kept (notices are being received). */
  get active(): boolean { return this.listening; }

  /** How many entries are kept now. */
  get size(): number { return this.entries.size; }

  /**
   * The value kept under `key`, or `load()`'s, then kept under `key` with `tags` (each a reason to
   * drop it) when no notice came in while it loaded.
   */
  async read<T>(key: string, load: () => Promise<T>, tags: (value: T) => readonly string[]): Promise<T> {
    if (!this.listening) {
      this.counts.misses += 1;
      return load();
    }
    const kept = this.entries.get(key);
    if (kept) {
      this.counts.hits += 1;
      return kept.value as T;
    }
    this.counts.misses += 1;
    const seen = this.generation;
    const value = await load();
    const entryTags = tags(value);
    if (this.listening && !this.changedSince(seen, entryTags)) {
      this.entries.set(key, { value, tags: entryTags });
      for (const tag of entryTags) {
        let keys = this.byTag.get(tag);
        if (!keys) this.byTag.set(tag, (keys = new Set()));
        keys.add(key);
      }
    }
    return value;
  }

  /** Drops every entry carrying `tag` (a notice's payload). */
  forget(tag: string): void {
    this.generation += 1;
    // Kept in notice order (re-set at the end): the oldest go first once there are too many.
    this.lastNotice.delete(tag);
    this.lastNotice.set(tag, this.generation);
    if (this.lastNotice.size > MAX_ENTRIES) {
      const [oldest, at] = this.lastNotice.entries().next().value as [string, number];
      this.lastNotice.delete(oldest);
      this.forgottenUpTo = at;
    }
    const keys = this.byTag.get(tag);
    if (!keys) return;
    this.counts.drops += keys.size;
    for (const key of [...keys]) this.entries.delete(key);
  }

  /**
   * Whether a notice naming one of `tags` came after generation `seen` (a load that read before
   * the change committed must not be kept); notices naming others (other tenants, other
   * callers) do not count. Unsure (forgotten notices) counts as yes.
   */
  private changedSince(seen: number, tags: readonly string[]): boolean {
    if (this.forgottenUpTo > seen) return true;
    return tags.some((tag) => (this.lastNotice.get(tag) ?? 0) > seen);
  }

  private clear(): void {
    this.generation += 1;
    this.forgottenUpTo = this.generation;
    this.lastNotice.clear();
    this.counts.drops += this.entries.size;
    this.entries.clear();
    this.byTag.clear();
  }

  private untag(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}

/** The tags of credentials, as migration 022's triggers name them. */
export const credentialTag = {
  apiKey: (keyHash: string) => `api-key:${keyHash}`,
  tenant: (tenantId: string) => `tenant:${tenantId}`,
  token: (jti: string) => `token:${jti}`,
  client: (clientId: string) => `client:${clientId}`,
  staff: (staffId: string) => `staff:${staffId}`,
  staffOfTenant: (tenantId: string) => `staff-tenant:${tenantId}`,
};
