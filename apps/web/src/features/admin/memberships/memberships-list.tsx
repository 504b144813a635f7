import { Button } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router';
import { ListToolbar } from '../../../components/list-controls.js';
import { adminPaths } from '../admin-paths.js';
import { useListView } from '../../../lib/paged-list.js';
import { CardGridPage } from '../components/card-grid-page.js';
import { useMembershipList } from './api.js';
import { MembershipCard } from './membership-card.js';
import { MEMBERSHIPS as T } from './messages.js';

/** The card grid, searchable and sorted on the server, with the create button; on its page and in the dashboard. */
export function MembershipsList({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const navigate = useNavigate();
  const view = useListView();
  const list = useMembershipList(view);
  return (
    <CardGridPage
      title={T.title}
      headingLevel={headingLevel}
      list={list}
      q={view.q}
      toolbar={
        <ListToolbar
          searchLabel={T.search}
          view={view}
          sorts={T.sorts}
          exportCsv={{ path: '/membership', file: 'memberships' }}
        />
      }
      texts={T}
      create={
        <Button appearance="primary" icon={<AddRegular />} onClick={() => navigate(`${adminPaths.memberships}/new`)}>
          {T.create}
        </Button>
      }
      itemKey={(membership) => membership.membershipId}
      renderItem={(membership) => <MembershipCard membership={membership} headingLevel={headingLevel === 1 ? 2 : 3} />}
    />
  );
}
