import { Spinner } from '@fluentui/react-components';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { errorText } from '../../../lib/error-text.js';
import { useAdminStyles } from './admin-styles.js';

export interface CardGridPageProps<T> {
  title: string;
  headingLevel: 1 | 2;
  query: UseQueryResult<T[]>;
  texts: { loading: string; loadFailed: string; empty: string };
  /** The create button: in the header once there are items, in the empty state before. */
  create: ReactNode;
  /** A message above the grid, such as a failed delete. */
  notice?: ReactNode;
  itemKey: (item: T) => number;
  renderItem: (item: T) => ReactNode;
}

/** An admin list page: title, create button, and the loading, error, empty or card-grid state of its query. */
export function CardGridPage<T>({
  title,
  headingLevel,
  query,
  texts,
  create,
  notice,
  itemKey,
  renderItem,
}: CardGridPageProps<T>) {
  const styles = useAdminStyles();
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <Heading className={styles.title}>{title}</Heading>
        {query.data && query.data.length > 0 ? create : null}
      </div>
      {notice}
      {query.isPending ? (
        <Spinner label={texts.loading} />
      ) : query.isError ? (
        <ErrorBanner message={errorText(query.error, texts.loadFailed)} error={query.error} />
      ) : query.data.length === 0 ? (
        <div className={styles.empty}>
          <p>{texts.empty}</p>
          {create}
        </div>
      ) : (
        <ul className={styles.grid} aria-label={title}>
          {query.data.map((item) => (
            <li key={itemKey(item)}>{renderItem(item)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
