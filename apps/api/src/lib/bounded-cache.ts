import { createHash } from 'node:crypto';
/**
 * What an entry costs beyond its key and value (the map's slot, the record, the strings' headers), roughly: a cache of
 * many small values is bounded by its entries' number as much as by their bytes.
 */
export const ENTRY_OVERHEAD_BYTES = 128;

/** What one cache keeps: its name (for the metrics), its entries' number and their cost in bytes. */
export interface CacheUsage {
  name: string;
  entries: number;
  bytes: number;
}

/** A cache as its shared budget sees it. */
interface BudgetMember {
  usage(): CacheUsage;
  /** Drops the least recently used entry; its cost in bytes, or 0 when there was none. */
  evictOldest(): number;
}

/**
 * One budget of bytes that several caches share, beside each one's own bound: when their entries together cost more,
 * the cache that holds the most gives up its least recently used entry, until they fit. So the process's answers
 * together stay within one figure, and a cache that is read more than the others can use what they leave.
 */
export function createMemoryBudget(maxBytes: number) {
  const members = new Set<BudgetMember>();
  return {
    maxBytes,
    /** What each cache of the budget keeps now. */
    usage: (): CacheUsage[] => [...members].map((member) => member.usage()),
    /** Adds a cache to the budget, for as long as the budget lives (an app's caches and budget go together). */
    join(member: BudgetMember): void {
      members.add(member);
    },
    /**
     * Evicts from the largest cache until the caches together fit the budget. `setter` has just kept an entry: its
     * newest, which is also its oldest while it is its only one, is never what goes.
     */
    fit(setter: BudgetMember): void {
      let total = 0;
      for (const member of members) total += member.usage().bytes;
      while (total > maxBytes) {
        let largest: BudgetMember | undefined;
        let most = 0;
        for (const member of members) {
          const { bytes, entries } = member.usage();
          if (bytes > most && (member !== setter || entries > 1)) [largest, most] = [member, bytes];
        }
        const freed = largest?.evictOldest() ?? 0;
        if (freed === 0) return;
        total -= freed;
      }
    },
  };
}

export type MemoryBudget = ReturnType<typeof createMemoryBudget>;

export interface BoundedCacheOptions<Value> {
  /** What the metrics call it (`ums_cache_bytes{cache="..."}`). */
  name?: string | undefined;
  /** A budget this cache shares with others (see createMemoryBudget), beside its own bounds. */
  budget?: MemoryBudget | undefined;
  /** At most this many bytes are kept: keys, values and each entry's overhead counted. */
  maxBytes: number;
  /** And at most this many entries however small, so that a caller choosing many keys cannot fill memory with them. */
  maxEntries: number;
  /**
   * A value's cost in bytes. The key's length and the entry's overhead are added by the cache: a key can hold a
   * caller's text (a search, a token's hash, a proof's header), so it is never left out of the budget.
   */
  bytesOf: (value: Value) => number;
}

interface Entry<Value> {
  key: string;
  value: Value;
  cost: number;
  older: Entry<Value> | undefined;
  newer: Entry<Value> | undefined;
}

/** Options of one `build`: when a kept value may be reused, and which concurrent builds may share one promise. */
export interface BuildOptions<Value> {
  /** Whether the kept value may still be served (e.g. it was built under the data version read now). */
  current?: (value: Value) => boolean;
  /**
   * Builds started for the same key and the same round share one promise (e.g. the data version the builder reads
   * under): a caller that read a newer version never waits for, nor is served, a build of an older one.
   */
  round?: string;
}

/**
 * The one in-process cache: least recently used first out, bounded by bytes (keys included) and by entries. Every
 * memo of the API that could grow with what callers send goes through one of these.
 */
export function createBoundedCache<Value>({
  name = 'unnamed',
  budget,
  maxBytes,
  maxEntries,
  bytesOf,
}: BoundedCacheOptions<Value>) {
  // A list from the least to the most recently used, beside the map that finds an entry: a read moves its entry to
  // the end and an eviction takes the first, with no walk over the map (whose iteration passes every slot a delete
  // left, so evicting through it slows down as the cache turns over).
  const entries = new Map<string, Entry<Value>>();
  const building = new Map<string, Promise<Value>>();
  let oldest: Entry<Value> | undefined;
  let newest: Entry<Value> | undefined;
  let bytes = 0;

  function unlink(entry: Entry<Value>) {
    if (entry.newer) entry.newer.older = entry.older;
    else newest = entry.older;
    if (entry.older) entry.older.newer = entry.newer;
    else oldest = entry.newer;
    entry.older = entry.newer = undefined;
  }

  function append(entry: Entry<Value>) {
    entry.older = newest;
    if (newest) newest.newer = entry;
    else oldest = entry;
    newest = entry;
  }

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return false;
    entries.delete(key);
    unlink(entry);
    bytes -= entry.cost;
    return true;
  }

  function get(key: string): Value | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry !== newest) {
      unlink(entry);
      append(entry);
    }
    return entry.value;
  }

  /** Keeps `value` under `key` as the most recently used, evicting the least recently used beyond either bound. */
  function set(key: string, value: Value): Value {
    remove(key);
    const cost = key.length + bytesOf(value) + ENTRY_OVERHEAD_BYTES;
    // A value bigger than the whole budget is served, not kept.
    if (cost > maxBytes || (budget && cost > budget.maxBytes)) return value;
    const entry: Entry<Value> = { key, value, cost, older: undefined, newer: undefined };
    entries.set(key, entry);
    append(entry);
    bytes += cost;
    while (oldest && (bytes > maxBytes || entries.size > maxEntries)) remove(oldest.key);
    budget?.fit(member);
    return value;
  }

  const usage = (): CacheUsage => ({ name, entries: entries.size, bytes });
  const member: BudgetMember = {
    usage,
    evictOldest: () => {
      const cost = oldest?.cost ?? 0;
      if (oldest) remove(oldest.key);
      return cost;
    },
  };
  budget?.join(member);

  return {
    get,
    set,
    /** Forgets `key`; true when it was kept. */
    delete: remove,
    /** Whether `key` is kept, leaving its place in the order as it is. */
    has: (key: string) => entries.has(key),
    /** What is kept: the number of entries and their cost in bytes (keys and overhead included). */
    get size() {
      return { entries: entries.size, bytes };
    },
    /** The same, with the cache's name. */
    usage,
    /** The keys kept, least recently used first (for tests). */
    keys: () => {
      const keys: string[] = [];
      for (let entry = oldest; entry; entry = entry.newer) keys.push(entry.key);
      return keys;
    },

    /**
     * The value kept under `key` when it is still current, else the value `build` resolves to, kept for the next
     * caller. Concurrent builds of one key (and round) share one promise; a build that fails is not kept.
     */
    async build(key: string, build: () => Promise<Value>, options: BuildOptions<Value> = {}): Promise<Value> {
      const kept = entries.get(key);
      if (kept && (options.current?.(kept.value) ?? true)) return get(key)!;
      const pendingKey = `${options.round ?? ''}\u0000${key}`;
      let pending = building.get(pendingKey);
      if (!pending) {
        pending = build()
          .then((value) => set(key, value))
          .finally(() => building.delete(pendingKey));
        building.set(pendingKey, pending);
      }
      return pending;
    },
  };
}

export type BoundedCache<Value> = ReturnType<typeof createBoundedCache<Value>>;

/**
 * Keys seen before, kept by their digest within `maxEntries` (least recently seen going first) and, with a budget,
 * counted in it: what lets a memo keep a value from its key's second ask rather than its first, when most keys are
 * asked once (decisions 044 and 046).
 */
export function createSeenOnce({
  name,
  budget,
  maxEntries,
}: {
  name?: string | undefined;
  budget?: MemoryBudget | undefined;
  maxEntries: number;
}) {
  // A digest's cost is its 43 characters and the entry's overhead: the bound in bytes follows from the entries'.
  const seen = createBoundedCache<true>({
    name,
    budget,
    maxBytes: maxEntries * (43 + ENTRY_OVERHEAD_BYTES),
    maxEntries,
    bytesOf: () => 0,
  });
  return {
    usage: seen.usage,
    /** True the first time `key` is seen (noting it), false once it has been. */
    firstTime(key: string): boolean {
      const digest = createHash('sha256').update(key).digest('base64url');
      if (seen.has(digest)) return false;
      seen.set(digest, true);
      return true;
    },
  };
}
