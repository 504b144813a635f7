import { Checkbox, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Spinner } from '../../../components/spinner.js';
import { useState } from 'react';
import { PROMOTIONAL_LIST_MAX_HEIGHT } from '../../../config/layout.js';
import { ErrorBanner } from '../../../components/error-banner.js';
import { DelayedSearchBox, LoadMore } from '../../../components/list-controls.js';
import { LIST_TEXT } from '../../../components/messages.js';
import { errorText } from '../../../lib/error-text.js';
import { formatUsd } from '../../../lib/format.js';
import { useProductList } from '../products/api.js';
import { PRODUCTS } from '../products/messages.js';

const useStyles = makeStyles({
  picker: { display: 'grid', gap: tokens.spacingVerticalS },
  checklist: {
    display: 'grid',
    gap: tokens.spacingVerticalXS,
    maxHeight: `${PROMOTIONAL_LIST_MAX_HEIGHT}px`,
    overflowY: 'auto',
  },
});

export interface PickedProduct {
  productId: number;
  name: string;
}

/**
 * Products to tick, searched and paged on the server (the catalog may hold thousands): a search box, the matching
 * products as checkboxes, and "Load more". `exclude` hides products that are already in (a package's own).
 */
export function ProductPicker({
  label,
  selected,
  onToggle,
  exclude,
  emptyText = PRODUCTS.empty,
}: {
  label: string;
  /** Shown when no product is left to pick before any search. */
  emptyText?: string;
  selected: ReadonlySet<number>;
  onToggle: (product: PickedProduct, checked: boolean) => void;
  exclude?: ReadonlySet<number>;
}) {
  const styles = useStyles();
  const [q, setQ] = useState('');
  const list = useProductList({ q, sort: '' });
  const shown = list.rows.filter((p) => !exclude?.has(p.productId));

  return (
    <div className={styles.picker}>
      <DelayedSearchBox label={PRODUCTS.search} onSearch={setQ} />
      {list.isPending ? (
        <Spinner size="tiny" label={PRODUCTS.loading} />
      ) : list.isError ? (
        <ErrorBanner message={errorText(list.error, PRODUCTS.loadFailed)} error={list.error} />
      ) : shown.length === 0 && !list.hasNextPage ? (
        <Text>{q ? LIST_TEXT.noMatch(q) : emptyText}</Text>
      ) : (
        <>
          <div className={styles.checklist} role="group" aria-label={label}>
            {shown.map((product) => (
              <Checkbox
                key={product.productId}
                label={`${product.name} (${formatUsd(product.retailPrice)})`}
                checked={selected.has(product.productId)}
                onChange={(_, data) => onToggle(product, data.checked === true)}
              />
            ))}
          </div>
          <LoadMore list={list} />
        </>
      )}
    </div>
  );
}
