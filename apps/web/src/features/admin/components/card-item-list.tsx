import { useAdminStyles } from './admin-styles.js';

/** Cards show their first 3 entries, then "... and N more" (SPEC section 9). */
export const CARD_ITEM_LIMIT = 3;

/** The list on a card: the first entries and how many more there are; nothing when there are none. */
export function CardItemList({
  items,
  more,
}: {
  items: readonly { key: number | string; text: string }[];
  more: (count: number) => string;
}) {
  const styles = useAdminStyles();
  if (items.length === 0) return null;
  const rest = items.length - CARD_ITEM_LIMIT;
  return (
    <ul className={styles.list}>
      {items.slice(0, CARD_ITEM_LIMIT).map((item) => (
        <li key={item.key}>{item.text}</li>
      ))}
      {rest > 0 ? <li>{more(rest)}</li> : null}
    </ul>
  );
}
