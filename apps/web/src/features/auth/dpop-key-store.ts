import { IndexedDbDPoPStore, type DPoPState } from 'oidc-client-ts';

type KeyStore = Pick<IndexedDbDPoPStore, 'set' | 'get' | 'remove' | 'getAllKeys'>;

/** The session-storage entry naming the DPoP key this tab's tokens are bound to. */
export const DPOP_KEY_ENTRY = 'ums.dpop-key';

/**
 * The browser's DPoP keys (non-extractable, in IndexedDB), one per signed-in tab. oidc-client-ts keeps one key per
 * client and deletes it whenever a tab drops its user, which in a shared store would pull the key from under every
 * other tab (a tab signing in while another is sent to sign in would present a code bound to a key that is gone).
 * Each tab names its own key in its session storage instead; a tab signed in from another (over the session
 * channel) adopts that tab's key with its tokens.
 */
export class TabDPoPStore {
  constructor(
    private readonly inner: KeyStore = new IndexedDbDPoPStore(),
    private readonly storage: Storage = sessionStorage,
  ) {}

  /** The id of this tab's key, made on first use. */
  tabKey(): string {
    let id = this.storage.getItem(DPOP_KEY_ENTRY);
    if (!id) {
      id = crypto.randomUUID();
      this.storage.setItem(DPOP_KEY_ENTRY, id);
    }
    return id;
  }

  /** From now on this tab proves with another tab's key (the tokens it was handed are bound to it). */
  adopt(id: string): void {
    this.storage.setItem(DPOP_KEY_ENTRY, id);
  }

  private entry = (key: string) => `${key}#${this.tabKey()}`;
  set = (key: string, value: DPoPState) => this.inner.set(this.entry(key), value);
  get = (key: string) => this.inner.get(this.entry(key));
  remove = (key: string) => this.inner.remove(this.entry(key));
  async getAllKeys(): Promise<string[]> {
    const suffix = `#${this.tabKey()}`;
    return (await this.inner.getAllKeys()).filter((k) => k.endsWith(suffix)).map((k) => k.slice(0, -suffix.length));
  }
}

/** Sign-out: every tab's key goes (the provider's session, which all the tabs' tokens came from, is ending). */
export async function forgetDpopKeys(store: KeyStore = new IndexedDbDPoPStore()): Promise<void> {
  for (const key of await store.getAllKeys()) await store.remove(key);
}
