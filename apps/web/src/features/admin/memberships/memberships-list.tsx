import { Button } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.js';
import { useMemberships } from './api.js';
import { CardGridPage } from '../components/card-grid-page.js';
import { MembershipCard } from './membership-card.js';
import { MEMBERSHIPS as T } from './messages.js';

/** The card grid, with the create button; used on its page and in the dashboard's tab. */
export function MembershipsList({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const navigate = useNavigate();
  return (
    <CardGridPage
      title={T.title}
      headingLevel={headingLevel}
      query={useMemberships()}
      texts={T}
      create={
        <Button appearance="primary" icon={<AddRegular />} onClick={() => navigate(`${paths.admin.memberships}/new`)}>
          {T.create}
        </Button>
      }
      itemKey={(membership) => membership.membershipId}
      renderItem={(membership) => <MembershipCard membership={membership} headingLevel={headingLevel === 1 ? 2 : 3} />}
    />
  );
}
