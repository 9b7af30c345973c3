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
  /** Counts the notices (and local forgets) seen: a load is kept only if none came while it ran. */
  private generation = 0;
  private listening = false;
  private stop?: () => Promise<void>;

  /** Starts receiving the database's notices; until then (and without a feed) nothing is kept. */
  async start(feed: ChangeFeed | undefined): Promise<void> {
    if (!feed) return;
    this.stop = await feed.listen(CREDENTIALS_CHANNEL, {
      notice: (tag) => this.forget(tag),
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

  /** Whether entries are being kept (notices are being received). */
  get active(): boolean { return this.listening; }

  /**
   * The value kept under `key`, or `load()`'s, then kept under `key` with `tags` (each a reason to
   * drop it) when no notice came in while it loaded.
   */
  async read<T>(key: string, load: () => Promise<T>, tags: (value: T) => readonly string[]): Promise<T> {
    if (!this.listening) return load();
    const kept = this.entries.get(key);
    if (kept) return kept.value as T;
    const seen = this.generation;
    const value = await load();
    if (this.listening && seen === this.generation) {
      const entryTags = tags(value);
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
    const keys = this.byTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) this.entries.delete(key);
  }

  private clear(): void {
    this.generation += 1;
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
