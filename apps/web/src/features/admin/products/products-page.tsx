import {
  Button,
  Image,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { ArrowSyncRegular } from '../components/icons.js';
import { ErrorBanner, SuccessBanner } from '../../../components/error-banner.js';
import { errorText } from '../../../lib/error-text.js';
import { formatUsd } from '../../../lib/format.js';
import { ListToolbar, LoadMore } from '../../../components/list-controls.js';
import { useListView } from '../../../lib/paged-list.js';
import { useProductList, useRefreshCatalog } from './api.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { ListState } from '../components/list-state.js';
import { PRODUCTS } from './messages.js';

const useStyles = makeStyles({
  tools: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'center' },
  image: { width: '40px', height: '40px', objectFit: 'contain' },
  number: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
  tableWrap: { overflowX: 'auto' },
});

/** The product catalog, searchable, with a refresh from the catalog source. */
export function ProductsPage() {
  const admin = useAdminStyles();
  const styles = useStyles();
  const view = useListView();
  const products = useProductList(view);
  const refresh = useRefreshCatalog();
  const shown = products.rows;

  return (
    <div className={admin.page}>
      <div className={admin.header}>
        <h1 className={admin.title}>{PRODUCTS.title}</h1>
        <div className={styles.tools}>
          <Button icon={<ArrowSyncRegular />} disabled={refresh.isPending} onClick={() => refresh.mutate()}>
            {refresh.isPending ? PRODUCTS.refreshing : PRODUCTS.refresh}
          </Button>
        </div>
      </div>
      {refresh.isSuccess ? <SuccessBanner message={refresh.data.message} /> : null}
      {refresh.isError ? (
        <ErrorBanner message={errorText(refresh.error, PRODUCTS.refreshFailed)} error={refresh.error} />
      ) : null}
      <ListToolbar
        searchLabel={PRODUCTS.search}
        view={view}
        sorts={PRODUCTS.sorts}
        exportCsv={{ path: '/product', file: 'products' }}
      />
      <ListState list={products} q={view.q} texts={PRODUCTS}>
        <div className={styles.tableWrap}>
          <Table aria-label={PRODUCTS.title}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{PRODUCTS.columns.name}</TableHeaderCell>
                <TableHeaderCell className={styles.number}>{PRODUCTS.columns.retailPrice}</TableHeaderCell>
                <TableHeaderCell>{PRODUCTS.columns.image}</TableHeaderCell>
                <TableHeaderCell className={styles.number}>{PRODUCTS.columns.productId}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((product) => (
                <TableRow key={product.productId}>
                  <TableCell>{product.name}</TableCell>
                  <TableCell className={styles.number}>{formatUsd(product.retailPrice)}</TableCell>
                  <TableCell>
                    {product.imageUrl ? (
                      <Image className={styles.image} src={product.imageUrl} alt={product.name} />
                    ) : null}
                  </TableCell>
                  <TableCell className={styles.number}>{product.productId}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <LoadMore list={products} />
        </div>
      </ListState>
    </div>
  );
}
