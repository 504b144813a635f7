import { MONEY_PATTERN } from '@ums/contracts/money';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../../lib/error-text.js';
import { DISCOUNT_PACKAGES as T, PRICE_DEBOUNCE_MS } from './messages.js';

export type PriceStatus = { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

/** '' means no package price (null); otherwise a decimal with at most 2 places. */
export function parsePrice(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return MONEY_PATTERN.test(trimmed) ? Number(trimmed) : undefined;
}

/**
 * Package price edits: each row saves 1 s after its last edit ("Saving..." meanwhile, then "Saved"); a new edit
 * restarts the row's timer. Unmounting (closing the dialog) cancels pending timers and discards pending edits.
 */
export function usePriceAutosave(save: (productId: number, price: number | null) => Promise<unknown>) {
  const [drafts, setDrafts] = useState<Record<number, string>>({});
  const [statuses, setStatuses] = useState<Record<number, PriceStatus>>({});
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  }, [save]);
  useEffect(() => {
    const pending = timers.current;
    return () => {
      pending.forEach(clearTimeout);
      pending.clear();
    };
  }, []);

  const edit = useCallback((productId: number, text: string) => {
    setDrafts((current) => ({ ...current, [productId]: text }));
    clearTimeout(timers.current.get(productId));
    timers.current.delete(productId);
    const price = parsePrice(text);
    if (price === undefined) {
      setStatuses((current) => ({ ...current, [productId]: { kind: 'error', message: T.invalidPrice } }));
      return;
    }
    setStatuses((current) => ({ ...current, [productId]: { kind: 'saving' } }));
    timers.current.set(
      productId,
      setTimeout(() => {
        timers.current.delete(productId);
        saveRef.current(productId, price).then(
          () =>
            setStatuses((current) =>
              // A newer edit may have started meanwhile; it owns the status then.
              timers.current.has(productId) ? current : { ...current, [productId]: { kind: 'saved' } },
            ),
          (error: unknown) =>
            setStatuses((current) => ({
              ...current,
              [productId]: { kind: 'error', message: errorText(error, T.priceFailed) },
            })),
        );
      }, PRICE_DEBOUNCE_MS),
    );
  }, []);

  return { drafts, statuses, edit };
}
