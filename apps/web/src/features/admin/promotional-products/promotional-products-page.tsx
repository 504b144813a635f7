import {
  Field,
  makeStyles,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
} from '@fluentui/react-components';
import { Spinner } from '../../../components/spinner.js';
import type { PromotionalProduct } from '@ums/contracts';
import { Link } from 'react-router';
import { ListToolbar, LoadMore } from '../../../components/list-controls.js';
import { useAddressParam, useListView, usePagedList } from '../../../lib/paged-list.js';
import { ErrorBanner } from '../../../components/error-banner.js';
import { LIST_TEXT } from '../../../components/messages.js';
import { adminPaths } from '../admin-paths.js';
import { errorText } from '../../../lib/error-text.js';
import { useMemberships } from '../memberships/api.js';
import { promotionalProductKeys } from './api.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { PROMOTIONAL_PRODUCTS } from './messages.js';

const useStyles = makeStyles({ filter: { maxWidth: '360px' } });

/** Which memberships promote which products, filterable by membership. */
export function PromotionalProductsPage() {
  const admin = useAdminStyles();
  const styles = useStyles();
  const view = useListView();
  const [membershipId, setMembershipId] = useAddressParam('membership');
  const links = usePagedList<PromotionalProduct>(
    promotionalProductKeys.all,
    membershipId ? `/promotionalProduct/${membershipId}` : '/promotionalProduct',
    view,
  );
  const memberships = useMemberships();
  const shown = links.rows;
  const failed = links.isError ? links.error : memberships.isError ? memberships.error : null;

  return (
    <div className={admin.page}>
      <h1 className={admin.title}>{PROMOTIONAL_PRODUCTS.title}</h1>
      <Field label={PROMOTIONAL_PRODUCTS.filter} className={styles.filter}>
        <Select value={membershipId} onChange={(_, data) => setMembershipId(data.value)}>
          <option value="">{PROMOTIONAL_PRODUCTS.all}</option>
          {(memberships.data ?? []).map((m) => (
            <option key={m.membershipId} value={String(m.membershipId)}>
              {m.name}
            </option>
          ))}
        </Select>
      </Field>
      <ListToolbar
        searchLabel={PROMOTIONAL_PRODUCTS.search}
        view={view}
        sorts={PROMOTIONAL_PRODUCTS.sorts}
        exportCsv={{ path: '/promotionalProduct', file: 'promotional-products' }}
      />
      {failed ? (
        <ErrorBanner message={errorText(failed, PROMOTIONAL_PRODUCTS.loadFailed)} error={failed} />
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
