import { Spinner } from '../../../components/spinner.js';
import type { ReactNode } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { LoadMore } from '../../../components/list-controls.js';
import { LIST_TEXT } from '../../../components/messages.js';
import { errorText } from '../../../lib/error-text.js';
import type { PagedList } from '../../../lib/paged-list.js';
import { useAdminStyles } from './admin-styles.js';

export interface CardGridPageProps<T> {
  title: string;
  headingLevel: 1 | 2;
  list: PagedList<T>;
  /** The search the list shows ("" for none): an empty answer then means nothing matched. */
  q: string;
  /** Search and sort, above the grid. */
  toolbar: ReactNode;
  texts: { loading: string; loadFailed: string; empty: string };
  /** The create button: in the header once there are items, in the empty state before. */
  create: ReactNode;
  /** A message above the grid, such as a failed delete. */
  notice?: ReactNode;
  itemKey: (item: T) => number;
  renderItem: (item: T) => ReactNode;
}

/** An admin list page: title, create button, search and sort, and the loading, error, empty or card-grid state. */
export function CardGridPage<T>({
  title,
  headingLevel,
  list,
  q,
  toolbar,
  texts,
  create,
  notice,
  itemKey,
  renderItem,
}: CardGridPageProps<T>) {
  const styles = useAdminStyles();
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const emptyCatalog = !list.isPending && !list.isError && list.total === 0 && !q;
  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <Heading className={styles.title}>{title}</Heading>
        {emptyCatalog || list.isPending ? null : create}
      </div>
      {emptyCatalog ? null : toolbar}
      {notice}
      {list.isPending ? (
        <Spinner label={texts.loading} />
      ) : list.isError ? (
        <ErrorBanner message={errorText(list.error, texts.loadFailed)} error={list.error} />
      ) : emptyCatalog ? (
        <div className={styles.empty}>
          <p>{texts.empty}</p>
          {create}
        </div>
      ) : list.rows.length === 0 ? (
        <p>{LIST_TEXT.noMatch(q)}</p>
      ) : (
        <>
          <ul className={styles.grid} aria-label={title}>
            {list.rows.map((item) => (
              <li key={itemKey(item)}>{renderItem(item)}</li>
            ))}
          </ul>
          <LoadMore list={list} />
        </>
      )}
    </div>
  );
}
