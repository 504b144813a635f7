import { Button, makeStyles, SearchBox, Select, Text, tokens } from '@fluentui/react-components';
import { useEffect, useId, useRef, useState } from 'react';
import { listQueryString } from '@ums/contracts/lists';
import { useDownload } from '../lib/download.js';
import { SEARCH_DELAY_MS, withQuery, type ListViewState, type PagedList } from '../lib/paged-list.js';
import { ErrorBanner } from './error-banner.js';
import { LIST_TEXT } from './messages.js';

const useStyles = makeStyles({
  toolbar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'center' },
  search: { minWidth: '260px' },
  sort: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  error: { flexBasis: '100%' },
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

/** A search box that reports its text (trimmed) once typing pauses. */
export function DelayedSearchBox({
  label,
  initial = '',
  onSearch,
  className,
}: {
  label: string;
  initial?: string;
  onSearch: (q: string) => void;
  className?: string;
}) {
  const [text, setText] = useState(initial);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <SearchBox
      className={className}
      aria-label={label}
      placeholder={label}
      value={text}
      onChange={(_, data) => {
        setText(data.value);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => onSearch(data.value.trim()), SEARCH_DELAY_MS);
      }}
    />
  );
}

/**
 * A list's search box and sort choice. Both live in the address through `view`, so reloading or sharing the link
 * shows the same list.
 */
export function ListToolbar({
  searchLabel,
  view,
  sorts,
  exportCsv,
}: {
  searchLabel: string;
  view: ListViewState;
  sorts: readonly SortOption[];
  /** The list call and file name of "Export CSV": the whole list as searched and sorted on screen. */
  exportCsv?: { path: string; file: string };
}) {
  const styles = useStyles();
  const sortId = useId();
  const files = useDownload(LIST_TEXT.exportFailed);
  const download = (csv: { path: string; file: string }) => {
    const query = listQueryString({ q: view.q, sort: view.sort || undefined });
    const path = withQuery(withQuery(csv.path, query), '?format=csv');
    void files.download('csv', path, `${csv.file}-${new Date().toISOString().slice(0, 10)}.csv`);
  };
  return (
    <div className={styles.toolbar}>
      <DelayedSearchBox className={styles.search} label={searchLabel} initial={view.q} onSearch={view.setQ} />
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
      {exportCsv ? (
        <Button disabled={files.busy !== null} onClick={() => download(exportCsv)}>
          {files.busy ? LIST_TEXT.exporting : LIST_TEXT.exportCsv}
        </Button>
      ) : null}
      {files.error ? (
        <div className={styles.error}>
          <ErrorBanner message={files.error} />
        </div>
      ) : null}
    </div>
  );
}

/** "Showing 25 of 2000" ("of 1000+" past a large list's count) and the button that fetches the list's next page. */
export function LoadMore({
  list,
}: {
  list: Pick<
    PagedList<unknown>,
    'rows' | 'total' | 'totalAtLeast' | 'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage'
  >;
}) {
  const styles = useStyles();
  return (
    <div className={styles.more}>
      <Text aria-live="polite">{LIST_TEXT.showing(list.rows.length, list.total, list.totalAtLeast)}</Text>
      {list.hasNextPage ? (
        <Button onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {list.isFetchingNextPage ? LIST_TEXT.loadingMore : LIST_TEXT.loadMore}
        </Button>
      ) : null}
    </div>
  );
}
