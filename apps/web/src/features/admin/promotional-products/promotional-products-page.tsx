import {
  Field,
  makeStyles,
  Select,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
} from '@fluentui/react-components';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorBanner } from '../../../components/error-banner.js';
import { paths } from '../../../config/paths.js';
import { errorText } from '../../../lib/error-text.js';
import { useMemberships } from '../memberships/api.js';
import { usePromotionalProducts } from './api.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { PROMOTIONAL_PRODUCTS } from './messages.js';

const useStyles = makeStyles({ filter: { maxWidth: '360px' } });

/** Which memberships promote which products, filterable by membership. */
export function PromotionalProductsPage() {
  const admin = useAdminStyles();
  const styles = useStyles();
  const links = usePromotionalProducts();
  const memberships = useMemberships();
  const [membershipId, setMembershipId] = useState('');
  const shown = (links.data ?? []).filter((l) => !membershipId || String(l.membershipId) === membershipId);
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
      {failed ? (
        <ErrorBanner message={errorText(failed, PROMOTIONAL_PRODUCTS.loadFailed)} error={failed} />
      ) : links.isPending ? (
        <Spinner label={PROMOTIONAL_PRODUCTS.loading} />
      ) : shown.length === 0 ? (
        <p>{membershipId ? PROMOTIONAL_PRODUCTS.emptyFiltered : PROMOTIONAL_PRODUCTS.empty}</p>
      ) : (
        <>
          <p className={admin.muted}>{PROMOTIONAL_PRODUCTS.count(shown.length)}</p>
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
                    <Link to={`${paths.admin.memberships}/${link.membershipId}`}>{link.membershipName}</Link>
                  </TableCell>
                  <TableCell>{link.productName}</TableCell>
                  <TableCell>{link.productId}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </div>
  );
}
