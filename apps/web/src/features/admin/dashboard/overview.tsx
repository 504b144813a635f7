import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/spinner.js';
import { ErrorBanner } from '../../../components/error-banner.js';
import { adminPaths } from '../admin-paths.js';
import { errorText } from '../../../lib/error-text.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { useConsoleRights } from '../console-roles.js';
import { useOverview } from './api.js';
import { METRICS_VIEW, OVERVIEW } from './messages.js';

// The business charts bring their chart library: fetched when the Overview opens, for the roles that may read them.
const BusinessOverview = lazy(() => import('./business-overview.js'));

const useStyles = makeStyles({
  figures: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  // A card's look without Fluent's Card, whose focus management a figure and a link do not need (and the dashboard's
  // script budget cannot spare with the charts).
  figure: {
    display: 'grid',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  number: {
    fontSize: tokens.fontSizeHero800,
    lineHeight: tokens.lineHeightHero800,
    fontWeight: tokens.fontWeightSemibold,
  },
  ranking: { margin: 0, display: 'grid', gap: tokens.spacingVerticalXS },
  heading: { margin: 0 },
});

export function Overview() {
  const admin = useAdminStyles();
  const { can } = useConsoleRights();
  return (
    <div className={admin.page}>
      {can('metrics') ? (
        <Suspense fallback={<Spinner label={METRICS_VIEW.loading} />}>
          <BusinessOverview />
        </Suspense>
      ) : null}
      <CatalogFigures />
    </div>
  );
}

/** The catalog's counts and its most promoted products (the Overview before issue 38, for every console role). */
function CatalogFigures() {
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
    <>
      <section className={admin.page} aria-labelledby="catalog-figures">
        <h2 id="catalog-figures" className={styles.heading}>
          {OVERVIEW.catalog}
        </h2>
        <ul className={styles.figures} aria-label="Figures" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {figures.map(([label, value, href]) => (
            <li key={label}>
              <div className={styles.figure}>
                <Text className={styles.number}>{value}</Text>
                <Link to={href}>{label}</Link>
              </div>
            </li>
          ))}
        </ul>
      </section>
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
    </>
  );
}
