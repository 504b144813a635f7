import { Card, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import type { PromotionalProduct } from '@ums/contracts';
import { Link } from 'react-router';
import { ErrorBanner } from '../../../components/error-banner.js';
import { paths } from '../../../config/paths.js';
import { errorText } from '../../../lib/error-text.js';
import { useDiscountPackages } from '../discount-packages/api.js';
import { useMemberships } from '../memberships/api.js';
import { useProducts } from '../products/api.js';
import { usePromotionalProducts } from '../promotional-products/api.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { OVERVIEW } from './messages.js';

export const TOP_PROMOTED = 5;

/** Products ordered by how many memberships promote them, most first, then by name. */
export function mostPromoted(links: readonly PromotionalProduct[], limit = TOP_PROMOTED) {
  const counts = new Map<number, { productId: number; name: string; count: number }>();
  for (const link of links) {
    const entry = counts.get(link.productId) ?? { productId: link.productId, name: link.productName, count: 0 };
    entry.count += 1;
    counts.set(link.productId, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)).slice(0, limit);
}

const useStyles = makeStyles({
  figures: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  figure: { padding: tokens.spacingHorizontalL, gap: tokens.spacingVerticalXS },
  number: {
    fontSize: tokens.fontSizeHero800,
    lineHeight: tokens.lineHeightHero800,
    fontWeight: tokens.fontWeightSemibold,
  },
  ranking: { margin: 0, display: 'grid', gap: tokens.spacingVerticalXS },
});

export function Overview() {
  const styles = useStyles();
  const admin = useAdminStyles();
  const memberships = useMemberships();
  const packages = useDiscountPackages();
  const products = useProducts();
  const links = usePromotionalProducts();
  const queries = [memberships, packages, products, links];
  const failed = queries.find((q) => q.isError);
  if (failed) return <ErrorBanner message={errorText(failed.error, OVERVIEW.loadFailed)} error={failed.error} />;
  if (!memberships.data || !packages.data || !products.data || !links.data) return <Spinner label={OVERVIEW.loading} />;

  const figures: [string, number, string][] = [
    [OVERVIEW.figures.memberships, memberships.data.length, paths.admin.memberships],
    [OVERVIEW.figures.discountPackages, packages.data.length, paths.admin.discountPackages],
    [OVERVIEW.figures.products, products.data.length, paths.admin.products],
    [OVERVIEW.figures.promotionalLinks, links.data.length, paths.admin.promotionalProducts],
  ];
  const top = mostPromoted(links.data);
  return (
    <div className={admin.page}>
      <ul className={styles.figures} aria-label="Figures" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {figures.map(([label, value, href]) => (
          <li key={label}>
            <Card className={styles.figure}>
              <Text className={styles.number}>{value}</Text>
              <Link to={href}>{label}</Link>
            </Card>
          </li>
        ))}
      </ul>
      <section aria-labelledby="most-promoted">
        <h2 id="most-promoted">{OVERVIEW.mostPromoted}</h2>
        {top.length === 0 ? (
          <p className={admin.muted}>{OVERVIEW.nonePromoted}</p>
        ) : (
          <ol className={styles.ranking}>
            {top.map((entry) => (
              <li key={entry.productId}>
                {entry.name}: {OVERVIEW.promotedBy(entry.count)}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
