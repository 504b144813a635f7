import type { DPoPState } from 'oidc-client-ts';
import { describe, expect, it } from 'vitest';
import { DPOP_KEY_ENTRY, forgetDpopKeys, TabDPoPStore } from './dpop-key-store.js';

/** IndexedDB as the browser shares it between the tabs of one origin. */
function sharedDatabase() {
  const entries = new Map<string, DPoPState>();
  return {
    entries,
    set: async (key: string, value: DPoPState) => void entries.set(key, value),
    get: async (key: string) => entries.get(key)!,
    remove: async (key: string) => {
      const value = entries.get(key)!;
      entries.delete(key);
      return value;
    },
    getAllKeys: async () => [...entries.keys()],
  };
}
/** One tab's session storage. */
function tabStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}
const state = (name: string) => ({ keys: { name } }) as unknown as DPoPState;

describe("each tab's DPoP key", () => {
  it("is the tab's own: another tab dropping its user leaves it in place", async () => {
    const database = sharedDatabase();
    const first = new TabDPoPStore(database, tabStorage());
    const second = new TabDPoPStore(database, tabStorage());
    await first.set('ums-web', state('first'));
    expect(await second.getAllKeys()).toEqual([]);
    await second.set('ums-web', state('second'));
    await second.remove('ums-web');
    expect(await first.getAllKeys()).toEqual(['ums-web']);
    expect(await first.get('ums-web')).toEqual(state('first'));
  });

  it("is the answering tab's when a tab is signed in from another (its tokens are bound to that key)", async () => {
    const database = sharedDatabase();
    const first = new TabDPoPStore(database, tabStorage());
    const storage = tabStorage();
    const second = new TabDPoPStore(database, storage);
    await first.set('ums-web', state('first'));
    second.adopt(first.tabKey());
    expect(storage.getItem(DPOP_KEY_ENTRY)).toBe(first.tabKey());
    expect(await second.get('ums-web')).toEqual(state('first'));
  });

  it('all go at sign-out', async () => {
    const database = sharedDatabase();
    await new TabDPoPStore(database, tabStorage()).set('ums-web', state('first'));
    await new TabDPoPStore(database, tabStorage()).set('ums-web', state('second'));
    await forgetDpopKeys(database);
    expect(database.entries.size).toBe(0);
  });
});
