import {
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
} from '@fluentui/react-components';
import { Spinner } from '../../../components/spinner.js';
import { useState } from 'react';
import { Link } from 'react-router';
import { ListToolbar, LoadMore } from '../../../components/list-controls.js';
import { useAddressParam, useListView } from '../../../lib/paged-list.js';
import { ErrorBanner } from '../../../components/error-banner.js';
import { LIST_TEXT } from '../../../components/messages.js';
import { adminPaths } from '../admin-paths.js';
import { errorText } from '../../../lib/error-text.js';
import { PagedChoice } from '../components/paged-choice.js';
import { useMembershipList } from '../memberships/api.js';
import { MEMBERSHIPS } from '../memberships/messages.js';
import { usePromotionalProductList } from './api.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { PROMOTIONAL_PRODUCTS } from './messages.js';

const useStyles = makeStyles({ filter: { maxWidth: '360px' } });

/** Which memberships promote which products, filterable by membership. */
export function PromotionalProductsPage() {
  const admin = useAdminStyles();
  const styles = useStyles();
  const view = useListView();
  const [membershipId, setMembershipId] = useAddressParam('membership');
  const links = usePromotionalProductList(membershipId, view);
  const [membershipQ, setMembershipQ] = useState('');
  const memberships = useMembershipList({ q: membershipQ, sort: '' });
  const shown = links.rows;

  return (
    <div className={admin.page}>
      <h1 className={admin.title}>{PROMOTIONAL_PRODUCTS.title}</h1>
      <div className={styles.filter}>
        <PagedChoice
          label={PROMOTIONAL_PRODUCTS.filter}
          searchLabel={MEMBERSHIPS.search}
          texts={{ loading: MEMBERSHIPS.loading, loadFailed: PROMOTIONAL_PRODUCTS.loadFailed }}
          list={memberships}
          q={membershipQ}
          onSearch={setMembershipQ}
          choiceOf={(m) => ({ value: String(m.membershipId), label: m.name })}
          value={membershipId}
          initial={membershipId ? { value: membershipId, label: links.rows[0]?.membershipName ?? membershipId } : null}
          none={PROMOTIONAL_PRODUCTS.all}
          onChange={setMembershipId}
        />
      </div>
      <ListToolbar
        searchLabel={PROMOTIONAL_PRODUCTS.search}
        view={view}
        sorts={PROMOTIONAL_PRODUCTS.sorts}
        exportCsv={{ path: '/promotionalProduct', file: 'promotional-products' }}
      />
      {links.isError ? (
        <ErrorBanner message={errorText(links.error, PROMOTIONAL_PRODUCTS.loadFailed)} error={links.error} />
      ) : links.isPending ? (
        <Spinner label={PROMOTIONAL_PRODUCTS.loading} />
      ) : shown.length === 0 ? (
        <p>
          {view.q
            ? LIST_TEXT.noMatch(view.q)
            : membershipId
              ? PROMOTIONAL_PRODUCTS.emptyFiltered
              : PROMOTIONAL_PRODUCTS.empty}
        </p>
      ) : (
        <>
          <p className={admin.muted}>{PROMOTIONAL_PRODUCTS.count(links.total)}</p>
          <Table aria-label={PROMOTIONAL_PRODUCTS.title}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{PROMOTIONAL_PRODUCTS.columns.membership}</TableHeaderCell>
                <TableHeaderCell>{PROMOTIONAL_PRODUCTS.columns.product}</TableHeaderCell>
                <TableHeaderCell>{PROMOTIONAL_PRODUCTS.columns.productId}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((link) => (
                <TableRow key={`${link.membershipId}-${link.productId}`}>
                  <TableCell>
                    <Link to={`${adminPaths.memberships}/${link.membershipId}`}>{link.membershipName}</Link>
                  </TableCell>
                  <TableCell>{link.productName}</TableCell>
                  <TableCell>{link.productId}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <LoadMore list={links} />
        </>
      )}
    </div>
  );
}
