import { makeStyles, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Spinner } from '../../../components/spinner.js';
import { ADMIN_LOADING } from '../messages.js';
import { DASHBOARD_TEXT } from './messages.js';
import { Overview } from './overview.js';

// The other tabs are the console's list pages, fetched when chosen.
const MembershipsList = lazy(() =>
  import('../memberships/memberships-list.js').then((m) => ({ default: m.MembershipsList })),
);
const DiscountPackagesList = lazy(() =>
  import('../discount-packages/discount-packages-list.js').then((m) => ({ default: m.DiscountPackagesList })),
);

const useStyles = makeStyles({
  page: { display: 'grid', gap: tokens.spacingVerticalL },
  subtitle: { color: tokens.colorNeutralForeground2 },
});

type DashboardTab = keyof typeof DASHBOARD_TEXT.tabs;

export function AdminDashboard() {
  const styles = useStyles();
  const [tab, setTab] = useState<DashboardTab>('overview');
  // The tabs' lists keep their search and sort in the address; each tab starts from its own defaults.
  const [, setParams] = useSearchParams();
  return (
    <div className={styles.page}>
      <header>
        <h1>{DASHBOARD_TEXT.title}</h1>
        <Text as="p" block size={500} className={styles.subtitle}>
          {DASHBOARD_TEXT.subtitle}
        </Text>
      </header>
      <TabList
        selectedValue={tab}
        onTabSelect={(_, data) => {
          setTab(data.value as DashboardTab);
          setParams(new URLSearchParams(), { replace: true });
        }}
      >
        {(Object.keys(DASHBOARD_TEXT.tabs) as DashboardTab[]).map((key) => (
          <Tab key={key} value={key}>
            {DASHBOARD_TEXT.tabs[key]}
          </Tab>
        ))}
      </TabList>
      <div role="tabpanel" aria-label={DASHBOARD_TEXT.tabs[tab]}>
        <Suspense fallback={<Spinner label={ADMIN_LOADING} />}>
          {tab === 'overview' ? <Overview /> : null}
          {tab === 'memberships' ? <MembershipsList headingLevel={2} /> : null}
          {tab === 'discountPackages' ? <DiscountPackagesList headingLevel={2} /> : null}
        </Suspense>
      </div>
    </div>
  );
}
