import { isDeepStrictEqual } from 'node:util';

/**
 * An audited entity's state as JSON: scalar fields, and collections (an object keyed by id, such as a package's
 * `products`) whose entries are compared and changed one by one. Absent and null are the same.
 */
export type State = Record<string, unknown>;

const isCollection = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => isDeepStrictEqual(a ?? null, b ?? null);

/**
 * What changed between two states: only the changed fields and collection entries, each side with its value (null
 * where it was absent), or null when nothing changed. A state that appears or disappears is recorded whole.
 */
export function diffStates(
  before: State | null,
  after: State | null,
): { before: State | null; after: State | null } | null {
  if (before === null || after === null) return before === after ? null : { before, after };
  const b: State = {};
  const a: State = {};
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[field];
    const now = after[field];
    if (isCollection(was) || isCollection(now)) {
      const wasItems = isCollection(was) ? was : {};
      const nowItems = isCollection(now) ? now : {};
      for (const id of new Set([...Object.keys(wasItems), ...Object.keys(nowItems)])) {
        if (same(wasItems[id], nowItems[id])) continue;
        ((b[field] ??= {}) as State)[id] = wasItems[id] ?? null;
        ((a[field] ??= {}) as State)[id] = nowItems[id] ?? null;
      }
    } else if (!same(was, now)) {
      b[field] = was ?? null;
      a[field] = now ?? null;
    }
  }
  return Object.keys(a).length === 0 ? null : { before: b, after: a };
}

/**
 * Whether `current` still shows what an entry recorded as its `after`: every field and collection entry the entry
 * names. An entry that created the entity (`wasCreation`) matches only the whole state it created.
 */
export function stillMatches(current: State | null, after: State | null, wasCreation: boolean): boolean {
  if (after === null || current === null) return after === current;
  if (wasCreation) return diffStates(after, current) === null;
  return Object.entries(after).every(([field, value]) => {
    if (!isCollection(value)) return same(current[field], value);
    const items = isCollection(current[field]) ? (current[field] as State) : {};
    return Object.entries(value).every(([id, item]) => same(items[id], item));
  });
}

/** `current` with the fields and collection entries of `target` applied (null entries removed), of `current`'s type. */
export function applyState<S extends State>(current: S, target: State): S {
  const next: State = { ...current };
  for (const [field, value] of Object.entries(target)) {
    if (!isCollection(value)) {
      next[field] = value;
      continue;
    }
    const items: State = { ...(isCollection(current[field]) ? (current[field] as State) : {}) };
    for (const [id, item] of Object.entries(value)) {
      if (item === null) delete items[id];
      else items[id] = item;
    }
    next[field] = items;
  }
  return next as S;
}
