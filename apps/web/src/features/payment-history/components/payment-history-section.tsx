import {
  Badge,
  Card,
  makeStyles,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import type { PaymentHistoryEntry } from '@ums/contracts';
import { useState } from 'react';
import { useAuth } from 'react-oidc-context';
import { useSectionStyles } from '../../../components/section-styles.js';
import { errorText } from '../../../lib/error-text.js';
import { formatShortDate, formatUsd } from '../../../lib/format.js';
import { useMediaQuery } from '../../../lib/use-media-query.js';
import { MOBILE_QUERY } from '../../../config/layout.js';
import { usePaymentHistory } from '../api/payment-history.js';
import { PAYMENT_HISTORY as T } from '../messages.js';
import { DEFAULT_PAYMENT_SORT, nextSort, sortPayments, type PaymentColumn } from '../sort.js';

const useStyles = makeStyles({
  tableWrap: { overflowX: 'auto' },
  amount: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
  cards: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalM },
  card: { padding: tokens.spacingHorizontalL, gap: tokens.spacingVerticalXS },
  cardHeader: { display: 'flex', justifyContent: 'space-between', fontWeight: tokens.fontWeightSemibold },
  cardRow: { display: 'grid', gridTemplateColumns: '90px 1fr', gap: tokens.spacingHorizontalS, margin: 0 },
  term: { color: tokens.colorNeutralForeground3 },
  message: { margin: 0 },
  error: { margin: 0, color: tokens.colorPaletteRedForeground1 },
});

const COLUMNS = Object.keys(T.columns) as PaymentColumn[];

function cell(entry: PaymentHistoryEntry, column: PaymentColumn) {
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
      return <Badge appearance="outline">{entry.status}</Badge>;
  }
}

export function PaymentHistorySection() {
  const section = useSectionStyles();
  const styles = useStyles();
  const auth = useAuth();
  const signedIn = Boolean(auth.user);
  const history = usePaymentHistory(signedIn);
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [sort, setSort] = useState(DEFAULT_PAYMENT_SORT);

  let body;
  if (!signedIn) body = <p className={styles.message}>{T.signInFirst}</p>;
  else if (history.isPending) body = <Spinner label={T.loading} />;
  else if (history.isError)
    body = (
      <p role="alert" className={styles.error}>
        {T.error(errorText(history.error, T.loadFailed))}
      </p>
    );
  else if (history.data.length === 0) body = <p className={styles.message}>{T.empty}</p>;
  else if (mobile) {
    body = (
      <ul className={styles.cards} aria-label={T.title}>
        {sortPayments(history.data, sort).map((entry) => (
          <li key={entry.orderId}>
            <Card className={styles.card} appearance="outline">
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
            </Card>
          </li>
        ))}
      </ul>
    );
  } else {
    body = (
      <div className={styles.tableWrap}>
        <Table aria-label={T.title} sortable>
          <TableHeader>
            <TableRow>
              {COLUMNS.map((column) => (
                <TableHeaderCell
                  key={column}
                  sortDirection={sort.column === column ? sort.direction : undefined}
                  onClick={() => setSort(nextSort(sort, column))}
                  className={column === 'totalAmount' ? styles.amount : undefined}
                >
                  {T.columns[column]}
                </TableHeaderCell>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {sortPayments(history.data, sort).map((entry) => (
              <TableRow key={entry.orderId}>
                {COLUMNS.map((column) => (
                  <TableCell key={column} className={column === 'totalAmount' ? styles.amount : undefined}>
                    {cell(entry, column)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    );
  }

  return <Card className={section.card}>{body}</Card>;
}
