import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { Link } from 'react-router';
import { Spinner } from '../../../components/spinner.js';
import { ErrorBanner } from '../../../components/error-banner.js';
import { adminPaths } from '../admin-paths.js';
import { errorText } from '../../../lib/error-text.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { useConsoleRights } from '../console-roles.js';
import { useOverview } from './api.js';
import BusinessOverview from './business-overview.js';
import { OVERVIEW } from './messages.js';

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
  pending: {
    height: tokens.lineHeightHero800,
    width: '3em',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  ranking: { margin: 0, display: 'grid', gap: tokens.spacingVerticalXS },
  heading: { margin: 0 },
});

export function Overview() {
  const admin = useAdminStyles();
  const { can } = useConsoleRights();
  return (
    <div className={admin.page}>
      {/* The business's figures and charts, for the roles that may read them; the chart library comes when a chart is
          about to be seen. */}
      {can('metrics') ? <BusinessOverview /> : null}
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

  const counts = overview.data;
  const figures: [string, number | undefined, string][] = [
    [OVERVIEW.figures.memberships, counts?.memberships, adminPaths.memberships],
    [OVERVIEW.figures.discountPackages, counts?.discountPackages, adminPaths.discountPackages],
    [OVERVIEW.figures.products, counts?.products, adminPaths.products],
    [OVERVIEW.figures.promotionalLinks, counts?.promotionalProducts, adminPaths.promotionalProducts],
  ];
  return (
    <>
      {/* The figures' cards are laid out at once, each number's line held until the counts come. */}
      <section className={admin.page} aria-labelledby="catalog-figures" aria-busy={!counts}>
        <h2 id="catalog-figures" className={styles.heading}>
          {OVERVIEW.catalog}
        </h2>
        <ul className={styles.figures} aria-label="Figures" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {figures.map(([label, value, href]) => (
            <li key={label}>
              <div className={styles.figure}>
                {value === undefined ? (
                  <span className={styles.pending}>
                    <span className="visually-hidden">{OVERVIEW.loading}</span>
                  </span>
                ) : (
                  <Text className={styles.number}>{value}</Text>
                )}
                <Link to={href}>{label}</Link>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="most-promoted">
        <h2 id="most-promoted">{OVERVIEW.mostPromoted}</h2>
        {!counts ? (
          <Spinner label={OVERVIEW.loading} />
        ) : counts.mostPromoted.length === 0 ? (
          <p className={admin.muted}>{OVERVIEW.nonePromoted}</p>
        ) : (
          <ol className={styles.ranking}>
            {counts.mostPromoted.map((entry) => (
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
