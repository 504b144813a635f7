import { Button, makeStyles, SearchBox, Select, Text, tokens } from '@fluentui/react-components';
import { useEffect, useId, useRef, useState } from 'react';
import { SEARCH_DELAY_MS, type ListViewState } from '../lib/paged-list.js';
import { LIST_TEXT } from './messages.js';

const useStyles = makeStyles({
  toolbar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'center' },
  search: { minWidth: '260px' },
  sort: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  more: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    color: tokens.colorNeutralForeground2,
  },
});

export interface SortOption {
  /** The list call's sort ("" for its default). */
  value: string;
  label: string;
}

/**
 * A list's search box and sort choice. Typing is sent once it pauses; both live in the address through `view`, so
 * reloading or sharing the link shows the same list.
 */
export function ListToolbar({
  searchLabel,
  view,
  sorts,
}: {
  searchLabel: string;
  view: ListViewState;
  sorts: readonly SortOption[];
}) {
  const styles = useStyles();
  const sortId = useId();
  const [text, setText] = useState(view.q);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div className={styles.toolbar}>
      <SearchBox
        className={styles.search}
        aria-label={searchLabel}
        placeholder={searchLabel}
        value={text}
        onChange={(_, data) => {
          setText(data.value);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => view.setQ(data.value.trim()), SEARCH_DELAY_MS);
        }}
      />
      <div className={styles.sort}>
        <Text as="span">
          <label htmlFor={sortId}>{LIST_TEXT.sortBy}</label>
        </Text>
        <Select id={sortId} value={view.sort} onChange={(_, data) => view.setSort(data.value)}>
          {sorts.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      </div>
    </div>
  );
}

/** "Showing 25 of 2,000" and the button that fetches the next page. */
export function LoadMore({
  shown,
  total,
  hasMore,
  loading,
  onMore,
}: {
  shown: number;
  total: number;
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
}) {
  const styles = useStyles();
  return (
    <div className={styles.more}>
      <Text aria-live="polite">{LIST_TEXT.showing(shown, total)}</Text>
      {hasMore ? (
        <Button onClick={onMore} disabled={loading}>
          {loading ? LIST_TEXT.loadingMore : LIST_TEXT.loadMore}
        </Button>
      ) : null}
    </div>
  );
}
