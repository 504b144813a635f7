import { Button, Card, CardHeader, Text } from '@fluentui/react-components';
import { AddRegular, DeleteRegular, EditRegular } from '@fluentui/react-icons';
import type { DiscountPackage } from '@ums/contracts';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { errorText } from '../../../lib/error-text.js';
import { formatUsd } from '../../../lib/format.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { HistoryLink } from '../components/history-link.js';
import { CardGridPage } from '../components/card-grid-page.js';
import { CardItemList } from '../components/card-item-list.js';
import { ListToolbar } from '../../../components/list-controls.js';
import { useListView } from '../../../lib/paged-list.js';
import { useDeletePackage, useDiscountPackageList } from './api.js';
import { ManageProductsDialog } from './manage-products-dialog.js';
import { DISCOUNT_PACKAGES as T } from './messages.js';
import { PackageDialog } from './package-dialog.js';

export interface DiscountPackagesListProps {
  headingLevel?: 1 | 2;
  /** The browser's confirm, replaceable in tests. */
  confirm?: (message: string) => boolean;
}

export function DiscountPackagesList({
  headingLevel = 1,
  confirm = (m) => window.confirm(m),
}: DiscountPackagesListProps) {
  const styles = useAdminStyles();
  const view = useListView();
  const packages = useDiscountPackageList(view);
  const deletion = useDeletePackage();
  const [editing, setEditing] = useState<{ pkg: DiscountPackage | null } | null>(null);
  const [managingId, setManagingId] = useState<number | null>(null);
  const CardHeading = headingLevel === 1 ? 'h2' : 'h3';
  const managing = packages.rows.find((p) => p.discountPackageId === managingId) ?? null;

  const remove = (pkg: DiscountPackage) => {
    if (confirm(T.deleteConfirm(pkg.name))) deletion.mutate(pkg.discountPackageId);
  };

  const create = (
    <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing({ pkg: null })}>
      {T.create}
    </Button>
  );

  return (
    <>
      <CardGridPage
        title={T.title}
        headingLevel={headingLevel}
        list={packages}
        q={view.q}
        toolbar={
          <ListToolbar
            searchLabel={T.search}
            view={view}
            sorts={T.sorts}
            exportCsv={{ path: '/discountPackage', file: 'discount-packages' }}
          />
        }
        texts={T}
        create={create}
        notice={
          deletion.isError ? (
            <ErrorBanner message={errorText(deletion.error, T.deleteFailed)} error={deletion.error} />
          ) : null
        }
        itemKey={(pkg) => pkg.discountPackageId}
        renderItem={(pkg) => (
          <Card className={styles.card}>
            <CardHeader
              header={<CardHeading className={styles.cardTitle}>{pkg.name}</CardHeading>}
              description={pkg.description ? <Text className={styles.muted}>{pkg.description}</Text> : null}
              action={
                <span>
                  <Button
                    appearance="subtle"
                    icon={<EditRegular />}
                    aria-label={T.edit(pkg.name)}
                    onClick={() => setEditing({ pkg })}
                  />
                  <Button
                    appearance="subtle"
                    icon={<DeleteRegular />}
                    aria-label={T.remove(pkg.name)}
                    onClick={() => remove(pkg)}
                  />
                </span>
              }
            />
            <Text weight="semibold">{T.productCount(pkg.products.length)}</Text>
            <CardItemList
              items={pkg.products.map((product) => ({
                key: product.productId,
                text: `${product.productName}: ${product.price === null ? T.noPrice : formatUsd(product.price)}`,
              }))}
              more={T.more}
            />
            <div>
              <Button onClick={() => setManagingId(pkg.discountPackageId)}>{T.manage}</Button>{' '}
              <HistoryLink entity="discount-package" id={pkg.discountPackageId} name={pkg.name} />
            </div>
          </Card>
        )}
      />
      <PackageDialog open={editing !== null} pkg={editing?.pkg ?? null} onClose={() => setEditing(null)} />
      <ManageProductsDialog pkg={managing} onClose={() => setManagingId(null)} />
    </>
  );
}
