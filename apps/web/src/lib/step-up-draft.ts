import { useEffect, useMemo, useState } from 'react';
import { StepUpRequiredError } from './api-client.js';

const PREFIX = 'ums.step-up-draft.';
/** A draft older than this is not brought back: the sign-in it waited for was abandoned. */
export const STEP_UP_DRAFT_LIFETIME_MS = 15 * 60_000;

interface StoredDraft {
  savedAt: number;
  draft: unknown;
}

/** Reads a stored value back into the draft's type, or null when it is not one (an older app's shape). */
export type DraftReader<T> = (stored: unknown) => T | null;

export interface DraftStore {
  storage?: Storage;
  now?: () => number;
}

/** Keeps what a person typed for a sensitive action in this tab, under the action's name. */
export function keepStepUpDraft(
  action: string,
  draft: unknown,
  { storage = sessionStorage, now = Date.now }: DraftStore = {},
) {
  const stored: StoredDraft = { savedAt: now(), draft };
  storage.setItem(PREFIX + action, JSON.stringify(stored));
}

/** The action's kept draft, if it is recent and still of the draft's shape; it stays stored until dropped. */
export function peekStepUpDraft<T>(
  action: string,
  read: DraftReader<T>,
  { storage = sessionStorage, now = Date.now }: DraftStore = {},
): T | null {
  const raw = storage.getItem(PREFIX + action);
  if (!raw) return null;
  try {
    const stored = JSON.parse(raw) as Partial<StoredDraft> | null;
    const savedAt = typeof stored?.savedAt === 'number' ? stored.savedAt : 0;
    if (now() - savedAt > STEP_UP_DRAFT_LIFETIME_MS) return null;
    return read(stored?.draft);
  } catch {
    return null;
  }
}

export function dropStepUpDraft(action: string, { storage = sessionStorage }: DraftStore = {}) {
  storage.removeItem(PREFIX + action);
}

export interface StepUpDraft<T> {
  /** What was typed before the step-up sign-in, brought back once when the screen opens again; else null. */
  restored: T | null;
  /** Call before sending the action: a step-up refusal leaves the tab at once, with no time to save afterwards. */
  keep: (draft: T) => void;
  /** Call when the action has answered: the draft goes unless the answer was a step-up, which brings it back. */
  settle: (error?: unknown) => void;
  /** The person gave the action up (closed the form): nothing is to come back. */
  drop: () => void;
}

/**
 * What a person typed for a sensitive action (RFC 9470 step-up), kept across the new sign-in: the app comes back to
 * the same address (the redirect path) and the screen restores the draft, so the action is one press away.
 */
export function useStepUpDraft<T>(action: string, read: DraftReader<T>, store: DraftStore = {}): StepUpDraft<T> {
  // Read once when the screen opens (a pure read, so a second render in StrictMode finds the same draft).
  const [restored] = useState(() => peekStepUpDraft(action, read, store));
  const { storage, now } = store;
  // Brought back once: leaving the screen and opening it again starts afresh.
  useEffect(() => {
    if (restored !== null) dropStepUpDraft(action, { storage });
  }, [action, restored, storage]);
  return useMemo(
    () => ({
      restored,
      keep: (draft: T) => keepStepUpDraft(action, draft, { storage, now }),
      settle: (error?: unknown) => {
        if (!(error instanceof StepUpRequiredError)) dropStepUpDraft(action, { storage });
      },
      drop: () => dropStepUpDraft(action, { storage }),
    }),
    [action, restored, storage, now],
  );
}
