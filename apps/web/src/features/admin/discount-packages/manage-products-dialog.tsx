import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Input,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import type { DiscountPackage } from '@ums/contracts';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { errorText } from '../../../lib/error-text.js';
import { formatUsd } from '../../../lib/format.js';
import { ProductPicker } from '../components/product-picker.js';
import { useAddPackageProducts, useRemovePackageProduct, useSetPackagePrice } from './api.js';
import { DISCOUNT_PACKAGES as T } from './messages.js';
import { usePriceAutosave } from './use-price-autosave.js';

const useStyles = makeStyles({
  surface: { maxWidth: '900px', width: 'calc(100vw - 32px)' },
  tableWrap: { overflowX: 'auto' },
  price: { width: '140px' },
  status: { minWidth: '90px' },
  error: { color: tokens.colorPaletteRedForeground1 },
  picker: { marginBlockStart: tokens.spacingVerticalL },
  addRow: { display: 'flex', gap: tokens.spacingHorizontalS, marginBlockStart: tokens.spacingVerticalM },
});

/** The table of a package's products with debounced price edits, add and remove. */
export function ManageProductsDialog({ pkg, onClose }: { pkg: DiscountPackage | null; onClose: () => void }) {
  const styles = useStyles();
  return (
    <Dialog open={pkg !== null} onOpenChange={(_, data) => (data.open ? undefined : onClose())}>
      <DialogSurface className={styles.surface}>
        {pkg ? <ManageProducts pkg={pkg} onClose={onClose} /> : null}
      </DialogSurface>
    </Dialog>
  );
}

function ManageProducts({ pkg, onClose }: { pkg: DiscountPackage; onClose: () => void }) {
  const styles = useStyles();
  const { discountPackageId } = pkg;
  const setPrice = useSetPackagePrice();
  const autosave = usePriceAutosave((productId, price) =>
    setPrice.mutateAsync({ discountPackageId, productId, price }),
  );
  const add = useAddPackageProducts();
  const removal = useRemovePackageProduct();
  const [picking, setPicking] = useState(false);
  const [chosen, setChosen] = useState<number[]>([]);
  const busy = add.isPending || removal.isPending;
  // Starting an add clears a removal's failure and the other way round, so at most one shows.
  const failure = add.isError
    ? errorText(add.error, T.addFailed)
    : removal.isError
      ? errorText(removal.error, T.removeFailed)
      : null;
  const inPackage = new Set(pkg.products.map((p) => p.productId));

  const addChosen = () =>
    add.mutate(
      { discountPackageId, productIds: chosen },
      {
        onSuccess: () => {
          setChosen([]);
          setPicking(false);
        },
      },
    );
  const remove = (productId: number) => {
    add.reset();
    removal.mutate({ discountPackageId, productId });
  };

  return (
    <DialogBody>
      <DialogTitle>{T.manageTitle(pkg.name)}</DialogTitle>
      <DialogContent>
        {failure ? <ErrorBanner message={failure} error={add.error ?? removal.error} /> : null}
        {pkg.products.length === 0 ? (
          <Text as="p" block>
            {T.noProducts}
          </Text>
        ) : (
          <div className={styles.tableWrap}>
            <Table aria-label={T.manageTitle(pkg.name)} size="small">
              <TableHeader>
                <TableRow>
                  {Object.values(T.columns).map((column) => (
                    <TableHeaderCell key={column}>{column}</TableHeaderCell>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {pkg.products.map((product) => {
                  const status = autosave.statuses[product.productId];
                  const value =
                    autosave.drafts[product.productId] ?? (product.price === null ? '' : product.price.toFixed(2));
                  return (
                    <TableRow key={product.productId}>
                      <TableCell>{product.productName}</TableCell>
                      <TableCell>{formatUsd(product.retailPrice)}</TableCell>
                      <TableCell>
                        <Input
                          className={styles.price}
                          type="number"
                          step="0.01"
                          min={0}
                          inputMode="decimal"
                          placeholder={T.noPrice}
                          aria-label={T.priceLabel(product.productName)}
                          value={value}
                          onChange={(_, data) => autosave.edit(product.productId, data.value)}
                        />
                      </TableCell>
                      <TableCell className={styles.status} aria-live="polite">
                        {status?.kind === 'saving' ? T.status.saving : null}
                        {status?.kind === 'saved' ? T.status.saved : null}
                        {status?.kind === 'error' ? <span className={styles.error}>{status.message}</span> : null}
                      </TableCell>
                      <TableCell>
                        <Button
                          appearance="subtle"
                          icon={<DeleteRegular />}
                          disabled={busy}
                          aria-label={T.removeProductLabel(product.productName)}
                          onClick={() => remove(product.productId)}
                        >
                          {T.removeProduct}
                        </Button>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </div>
        )}
        {picking ? (
          <>
            <div className={styles.picker}>
              <ProductPicker
                label={T.chooseProducts}
                selected={new Set(chosen)}
                exclude={inPackage}
                emptyText={T.allAdded}
                onToggle={(product, checked) =>
                  setChosen((current) =>
                    checked ? [...current, product.productId] : current.filter((id) => id !== product.productId),
                  )
                }
              />
            </div>
            <div className={styles.addRow}>
              <Button
                appearance="primary"
                disabled={busy || chosen.length === 0}
                onClick={() => {
                  removal.reset();
                  addChosen();
                }}
              >
                {T.addSelected(chosen.length)}
              </Button>
              <Button onClick={() => setPicking(false)}>{T.cancel}</Button>
            </div>
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        {!picking ? (
          <Button icon={<AddRegular />} onClick={() => setPicking(true)}>
            {T.addProducts}
          </Button>
        ) : null}
        <Button appearance="primary" onClick={onClose}>
          {T.close}
        </Button>
      </DialogActions>
    </DialogBody>
  );
}
