import { Card, CardHeader, Text } from '@fluentui/react-components';
import type { Membership } from '@ums/contracts';
import { Link } from 'react-router';
import { adminPaths } from '../admin-paths.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { CardItemList } from '../components/card-item-list.js';
import { HistoryLink } from '../components/history-link.js';
import { MEMBERSHIPS as T } from './messages.js';

/** One membership; the whole card opens its edit form. */
export function MembershipCard({ membership, headingLevel }: { membership: Membership; headingLevel: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const styles = useAdminStyles();
  const promoted = membership.promotionalProducts.map((p) => ({ key: p.productId, text: p.name }));
  return (
    <Card className={styles.card}>
      <CardHeader
        header={
          <Heading className={styles.cardTitle}>
            <Link className={styles.cardLink} to={`${adminPaths.memberships}/${membership.membershipId}`}>
              {membership.name}
            </Link>
          </Heading>
        }
        description={membership.description ? <Text className={styles.muted}>{membership.description}</Text> : null}
      />
      <dl className={styles.facts}>
        <dt className={styles.term}>{T.card.product}</dt>
        <dd className={styles.definition}>
          {membership.productName} (#{membership.productId})
        </dd>
        <dt className={styles.term}>{T.card.discountPackage}</dt>
        <dd className={styles.definition}>{membership.discountPackageName ?? T.none}</dd>
        <dt className={styles.term}>{T.card.freeItems}</dt>
        <dd className={styles.definition}>{membership.numberOfFreeEligibleItems}</dd>
        <dt className={styles.term}>{T.card.length}</dt>
        <dd className={styles.definition}>{T.card.months(membership.membershipLengthInMonths)}</dd>
      </dl>
      <Text weight="semibold">{T.card.promotional(promoted.length)}</Text>
      <CardItemList items={promoted} more={T.card.more} />
      <div>
        <HistoryLink entity="membership" id={membership.membershipId} name={membership.name} />
      </div>
    </Card>
  );
}
