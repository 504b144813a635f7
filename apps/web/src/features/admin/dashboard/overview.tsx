import { Card, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Spinner } from '../../../components/spinner.js';
import { Link } from 'react-router';
import { ErrorBanner } from '../../../components/error-banner.js';
import { adminPaths } from '../admin-paths.js';
import { errorText } from '../../../lib/error-text.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { useOverview } from './api.js';
import { OVERVIEW } from './messages.js';

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
  const overview = useOverview();
  if (overview.isError)
    return <ErrorBanner message={errorText(overview.error, OVERVIEW.loadFailed)} error={overview.error} />;
  if (overview.isPending || !overview.data) return <Spinner label={OVERVIEW.loading} />;

  const figures: [string, number, string][] = [
    [OVERVIEW.figures.memberships, overview.data.memberships, adminPaths.memberships],
    [OVERVIEW.figures.discountPackages, overview.data.discountPackages, adminPaths.discountPackages],
    [OVERVIEW.figures.products, overview.data.products, adminPaths.products],
    [OVERVIEW.figures.promotionalLinks, overview.data.promotionalProducts, adminPaths.promotionalProducts],
  ];
  const top = overview.data.mostPromoted;
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
                {entry.name}: {OVERVIEW.promotedBy(entry.memberships)}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
