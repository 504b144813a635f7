import type { ReactNode } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { LIST_TEXT } from '../../../components/messages.js';
import { Spinner } from '../../../components/spinner.js';
import { errorText } from '../../../lib/error-text.js';
import type { PagedList } from '../../../lib/paged-list.js';

/**
 * What an admin list shows before its rows: a spinner while the first page loads, the error, or why there is
 * nothing (an empty list, or nothing matching the search); the rows themselves otherwise.
 */
export function ListState<T>({
  list,
  q,
  texts,
  children,
}: {
  list: Pick<PagedList<T>, 'isPending' | 'isError' | 'error' | 'rows'>;
  q: string;
  texts: { loading: string; loadFailed: string; empty: string; noMatch?: (query: string) => string };
  children: ReactNode;
}) {
  if (list.isPending) return <Spinner label={texts.loading} />;
  if (list.isError) return <ErrorBanner message={errorText(list.error, texts.loadFailed)} error={list.error} />;
  if (list.rows.length === 0) return <p>{q ? (texts.noMatch ?? LIST_TEXT.noMatch)(q) : texts.empty}</p>;
  return children;
}
