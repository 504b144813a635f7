import { Button, Spinner } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router';
import { ErrorBanner } from '../../../components/error-banner.js';
import { paths } from '../../../config/paths.js';
import { errorText } from '../../../lib/error-text.js';
import { useMemberships } from '../api/admin-queries.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { MembershipCard } from './membership-card.js';
import { MEMBERSHIPS as T } from './messages.js';

/** The card grid, with the create button; used on its page and in the dashboard's tab. */
export function MembershipsList({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const styles = useAdminStyles();
  const navigate = useNavigate();
  const memberships = useMemberships();
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const create = (
    <Button appearance="primary" icon={<AddRegular />} onClick={() => navigate(`${paths.admin.memberships}/new`)}>
      {T.create}
    </Button>
  );
  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <Heading className={styles.title}>{T.title}</Heading>
        {memberships.data && memberships.data.length > 0 ? create : null}
      </div>
      {memberships.isPending ? (
        <Spinner label={T.loading} />
      ) : memberships.isError ? (
        <ErrorBanner message={errorText(memberships.error, T.loadFailed)} />
      ) : memberships.data.length === 0 ? (
        <div className={styles.empty}>
          <p>{T.empty}</p>
          {create}
        </div>
      ) : (
        <ul className={styles.grid} aria-label={T.title}>
          {memberships.data.map((membership) => (
            <li key={membership.membershipId}>
              <MembershipCard membership={membership} headingLevel={headingLevel === 1 ? 2 : 3} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
