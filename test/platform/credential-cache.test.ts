import { CredentialCache, CREDENTIALS_CHANNEL } from '../../server/platform/auth/credential-cache.js';
import type { ChangeFeed, ChangeListener } from '../../server/platform/db/database.js';

/** A change feed the test drives: it says when notices flow and sends them. */
function fakeFeed() {
  let listener: ChangeListener | undefined;
  const feed: ChangeFeed = {
    async listen(channel, given) {
      expect(channel).toBe(CREDENTIALS_CHANNEL);
      listener = given;
      given.listening(true);
      return async () => { given.listening(false); };
    },
  };
  return { feed, notice: (tag: string) => listener!.notice(tag), listening: (on: boolean) => listener!.listening(on) };
}

/** A load that counts its calls and answers what it is told. */
function loader<T>(value: T) {
  const load = Object.assign(async () => { load.calls += 1; return load.value; }, { calls: 0, value });
  return load;
}

describe('CredentialCache', () => {
  it('reads each key once while notices flow, and again once a notice names one of its tags', async () => {
    const { feed, notice } = fakeFeed();
    const cache = new CredentialCache();
    await cache.start(feed);
    const load = loader({ sessionVersion: 1 });
    const tags = () => ['client:a', 'token:t1'];
    expect(await cache.read('k1', load, tags)).toEqual({ sessionVersion: 1 });
    expect(await cache.read('k1', load, tags)).toEqual({ sessionVersion: 1 });
    expect(load.calls).toBe(1);

    notice('client:b');
    await cache.read('k1', load, tags);
    expect(load.calls).toBe(1);

    load.value = { sessionVersion: 2 };
    notice('token:t1');
    expect(await cache.read('k1', load, tags)).toEqual({ sessionVersion: 2 });
    expect(load.calls).toBe(2);
    await cache.close();
  });

  it('drops every entry a tag names, and only those', async () => {
    const { feed, notice } = fakeFeed();
    const cache = new CredentialCache();
    await cache.start(feed);
    const a = loader('a');
    const b = loader('b');
    await cache.read('ka', a, () => ['tenant:1', 'client:a']);
    await cache.read('kb', b, () => ['tenant:1', 'client:b']);
    notice('client:a');
    await cache.read('ka', a, () => ['tenant:1', 'client:a']);
    await cache.read('kb', b, () => ['tenant:1', 'client:b']);
    expect([a.calls, b.calls]).toEqual([2, 1]);
    notice('tenant:1');
    await cache.read('ka', a, () => ['tenant:1']);
    await cache.read('kb', b, () => ['tenant:1']);
    expect([a.calls, b.calls]).toEqual([3, 2]);
    await cache.close();
  });

  it('answers but does not keep a load that a notice of its own overtook (read before the change committed); others\' notices do not count', async () => {
    const { feed, notice } = fakeFeed();
    const cache = new CredentialCache();
    await cache.start(feed);
    /**
     * A load of `key` (tagged `tag`) during which `during` is noticed; answers what the load
     * gave and what the next read of `key` gives (1 again: it was kept; 2: read anew).
     */
    const race = async (key: string, tag: string, during: string) => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => { release = resolve; });
      let calls = 0;
      const load = async () => { calls += 1; if (calls === 1) await gate; return calls; };
      const first = cache.read(key, load, () => [tag]);
      notice(during);
      release();
      return [await first, await cache.read(key, load, () => [tag])];
    };
    expect(await race('k', 'token:t', 'token:t')).toEqual([1, 2]);
    expect(await race('k2', 'token:u', 'token:somebody-else')).toEqual([1, 1]);
    await cache.close();
  });

  it('keeps nothing while notices may be missed: without a feed, and from a lost connection until listening again', async () => {
    const without = new CredentialCache();
    await without.start(undefined);
    const load = loader(1);
    await without.read('k', load, () => []);
    await without.read('k', load, () => []);
    expect(load.calls).toBe(2);

    const { feed, listening } = fakeFeed();
    const cache = new CredentialCache();
    await cache.start(feed);
    const kept = loader(1);
    await cache.read('k', kept, () => []);
    listening(false);
    expect(cache.active).toBe(false);
    await cache.read('k', kept, () => []);
    await cache.read('k', kept, () => []);
    expect(kept.calls).toBe(3);
    listening(true);
    await cache.read('k', kept, () => []);
    await cache.read('k', kept, () => []);
    expect(kept.calls).toBe(4);
    await cache.close();
  });

  it('does not keep a failed load (an unknown Api-Key is read again next time)', async () => {
    const { feed } = fakeFeed();
    const cache = new CredentialCache();
    await cache.start(feed);
    let calls = 0;
    const failing = async () => { calls += 1; throw new Error('unknown'); };
    await expect(cache.read('k', failing, () => [])).rejects.toThrow('unknown');
    await expect(cache.read('k', failing, () => [])).rejects.toThrow('unknown');
    expect(calls).toBe(2);
    await cache.close();
  });
});
