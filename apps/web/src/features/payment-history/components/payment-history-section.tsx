import { Button, makeStyles, mergeClasses, shorthands, tokens } from '@fluentui/react-components';
import { Spinner } from '../../../components/spinner.js';
import { ArrowSortDown16Regular, ArrowSortUp16Regular } from '@fluentui/react-icons';
import type { PaymentHistoryEntry } from '@ums/contracts';
import { RECEIPT_ACTIONS as R, receiptFileName, yearReceiptsFileName } from '@ums/contracts/self-service/receipts';
import { useDownload } from '../../../lib/download.js';
import { useDeferredValue, useState } from 'react';
import { useAuth } from 'react-oidc-context';
import { ErrorBanner } from '../../../components/error-banner.js';
import { useSectionStyles } from '../../../components/section-styles.js';
import { errorText } from '../../../lib/error-text.js';
import { formatShortDate, formatUsd } from '../../../lib/format.js';
import { useMediaQuery } from '../../../lib/use-media-query.js';
import { MOBILE_QUERY } from '../../../config/layout.js';
import { usePaymentHistory } from '../api/payment-history.js';
import { PAGE_SIZE } from '../../../lib/paged-list.js';
import { PAYMENT_HISTORY as T } from '../messages.js';
import { useSessionPending } from '../../auth/index.js';
import { DEFAULT_PAYMENT_SORT, nextSort, type PaymentColumn } from '../sort.js';

const useStyles = makeStyles({
  tableWrap: { overflowX: 'auto' },
  more: { alignSelf: 'center', marginBlockStart: tokens.spacingVerticalM },
  /** A native table (not Fluent's): the account page's first load has a JavaScript budget. */
  table: { width: '100%', borderCollapse: 'collapse', fontSize: tokens.fontSizeBase300 },
  th: {
    textAlign: 'start',
    fontWeight: tokens.fontWeightSemibold,
    ...shorthands.borderBottom('1px', 'solid', tokens.colorNeutralStroke1),
    padding: 0,
  },
  sortButton: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    width: '100%',
    justifyContent: 'inherit',
    paddingBlock: tokens.spacingVerticalS,
    paddingInline: tokens.spacingHorizontalS,
    border: 'none',
    background: 'none',
    font: 'inherit',
    color: 'inherit',
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  tr: { ...shorthands.borderBottom('1px', 'solid', tokens.colorNeutralStroke2) },
  td: { paddingBlock: tokens.spacingVerticalS, paddingInline: tokens.spacingHorizontalS },
  amount: { textAlign: 'end', justifyContent: 'flex-end', fontVariantNumeric: 'tabular-nums' },
  cards: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalM },
  card: { padding: tokens.spacingHorizontalL, gap: tokens.spacingVerticalXS },
  cardHeader: { display: 'flex', justifyContent: 'space-between', fontWeight: tokens.fontWeightSemibold },
  cardRow: { display: 'grid', gridTemplateColumns: '90px 1fr', gap: tokens.spacingHorizontalS, margin: 0 },
  term: { color: tokens.colorNeutralForeground3 },
  receipts: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    marginBlockStart: tokens.spacingVerticalM,
  },
  cardAction: { justifySelf: 'start' },
  message: { margin: 0 },
  status: {
    display: 'inline-block',
    paddingInline: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusCircular,
    ...shorthands.border('1px', 'solid', tokens.colorBrandStroke1),
    color: tokens.colorBrandForeground1,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase300,
  },
});

const COLUMNS = Object.keys(T.columns) as PaymentColumn[];

function cell(entry: PaymentHistoryEntry, column: PaymentColumn, statusClass: string) {
  switch (column) {
    case 'orderId':
      return T.order(entry.orderId);
    case 'productNames':
      return entry.productNames.join(', ');
    case 'totalAmount':
      return formatUsd(entry.totalAmount);
    case 'date':
      return formatShortDate(entry.date);
    case 'status':
      return <span className={statusClass}>{entry.status}</span>;
  }
}

export function PaymentHistorySection() {
  const section = useSectionStyles();
  const styles = useStyles();
  const auth = useAuth();
  const signedIn = Boolean(auth.user);
  // A new tab signing in from the browser's session is loading, not signed out.
  const pending = useSessionPending();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [sort, setSort] = useState(DEFAULT_PAYMENT_SORT);
  // The table (up to a page of rows) renders in the background when its data arrives, in slices, so the page
  // stays responsive; until then the previous state (the spinner) stays on screen.
  const current = usePaymentHistory(sort, signedIn);
  const history = useDeferredValue(current);
  const visible = history.rows;
  // A new sort keeps the previous rows on screen until the server answers and the rows are drawn; assistive tech
  // hears it is loading from the click on (the header's new order shows at once, the deferred rows after it).
  const busy = current.isPlaceholderData || history.isPlaceholderData || undefined;
  const more = history.total - visible.length;
  const files = useDownload(R.downloadFailed);
  const receipt = (entry: PaymentHistoryEntry) => (
    <Button
      size="small"
      appearance="subtle"
      aria-label={R.actionLabel(entry.orderId)}
      disabled={files.busy === `order-${entry.orderId}`}
      onClick={() =>
        void files.download(
          `order-${entry.orderId}`,
          `/PaymentHistory/${entry.orderId}/receipt`,
          receiptFileName(entry.orderId),
        )
      }
    >
      {R.action}
    </Button>
  );
  // Receipts by year for the years of the orders on screen (UTC years, as the server counts them), newest first.
  const years = [...new Set(visible.map((entry) => new Date(entry.date).getUTCFullYear()))].sort((a, b) => b - a);
  const showMore = history.hasNextPage ? (
    <Button className={styles.more} disabled={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
      {T.showMore(Math.min(more, PAGE_SIZE), more)}
    </Button>
  ) : null;

  let body;
  if (!signedIn) body = pending ? <Spinner label={T.loading} /> : <p className={styles.message}>{T.signInFirst}</p>;
  else if (history.isPending) body = <Spinner label={T.loading} />;
  else if (history.isError)
    body = <ErrorBanner message={T.error(errorText(history.error, T.loadFailed))} error={history.error} />;
  else if (history.total === 0) body = <p className={styles.message}>{T.empty}</p>;
  else if (mobile) {
    body = (
      <ul className={styles.cards} aria-label={T.title} aria-busy={busy}>
        {visible.map((entry) => (
          <li key={entry.orderId}>
            <div className={mergeClasses(section.outlined, styles.card)}>
              <div className={styles.cardHeader}>
                <span>{T.order(entry.orderId)}</span>
                <span>{formatUsd(entry.totalAmount)}</span>
              </div>
              <dl className={styles.cardRow}>
                <dt className={styles.term}>{T.columns.productNames}</dt>
                <dd className={styles.message}>{entry.productNames.join(', ')}</dd>
                <dt className={styles.term}>{T.columns.date}</dt>
                <dd className={styles.message}>{formatShortDate(entry.date)}</dd>
                <dt className={styles.term}>{T.columns.status}</dt>
                <dd className={styles.message}>{entry.status}</dd>
              </dl>
              <div className={styles.cardAction}>{receipt(entry)}</div>
            </div>
          </li>
        ))}
      </ul>
    );
  } else {
    body = (
      <div className={styles.tableWrap}>
        <table className={styles.table} aria-label={T.title} aria-busy={busy}>
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th
                  key={column}
                  scope="col"
                  aria-sort={sort.column === column ? sort.direction : undefined}
                  className={mergeClasses(styles.th, column === 'totalAmount' && styles.amount)}
                >
                  <button type="button" className={styles.sortButton} onClick={() => setSort(nextSort(sort, column))}>
                    {T.columns[column]}
                    {sort.column === column ? (
                      sort.direction === 'ascending' ? (
                        <ArrowSortUp16Regular aria-hidden />
                      ) : (
                        <ArrowSortDown16Regular aria-hidden />
                      )
                    ) : null}
                  </button>
                </th>
              ))}
              <th scope="col" className={styles.th}>
                <span className={styles.td}>{R.action}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {visible.map((entry) => (
              <tr key={entry.orderId} className={styles.tr}>
                {COLUMNS.map((column) => (
                  <td key={column} className={mergeClasses(styles.td, column === 'totalAmount' && styles.amount)}>
                    {cell(entry, column, styles.status)}
                  </td>
                ))}
                <td className={styles.td}>{receipt(entry)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  const yearly =
    signedIn && years.length > 0 ? (
      <div className={styles.receipts}>
        {years.map((year) => (
          <Button
            key={year}
            size="small"
            disabled={files.busy === `year-${year}`}
            onClick={() =>
              void files.download(`year-${year}`, `/PaymentHistory/receipts?year=${year}`, yearReceiptsFileName(year))
            }
          >
            {R.allForYear(year)}
          </Button>
        ))}
      </div>
    ) : null;

  return (
    <div className={section.card}>
      {body}
      {showMore}
      {yearly}
      {files.error ? <ErrorBanner message={files.error} /> : null}
    </div>
  );
}
