import { CalendarLtrRegular, KeyRegular, PersonRegular, ReceiptRegular, ShieldRegular } from '@fluentui/react-icons';
import { lazy, Suspense, type ReactElement } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { useScrollSpy } from '../../lib/use-scroll-spy.js';
import { AppShell, type NavEntry } from '../shell/index.js';
import { AccountPage } from './account-page.js';
import { ACCOUNT_SECTIONS, scrollToSection, type AccountSectionId } from './account-sections.js';
import { ACCOUNT_NAV_LABEL, ACCOUNT_PLACEHOLDERS, ACCOUNT_TITLE } from './messages.js';

const icons: Record<AccountSectionId, ReactElement> = {
  'personal-information': <PersonRegular />,
  'login-details': <KeyRegular />,
  'payment-history': <ReceiptRegular />,
  subscriptions: <CalendarLtrRegular />,
  security: <ShieldRegular />,
};
// Pages a member rarely opens: fetched when they do, not with the account page.
const ComingSoon = lazy(() => import('../../components/coming-soon.js').then((m) => ({ default: m.ComingSoon })));
const NotFound = lazy(() => import('../../components/not-found.js').then((m) => ({ default: m.NotFound })));

const sectionIds = ACCOUNT_SECTIONS.map((s) => s.id);
const accountPaths = new Set(['/', '/personal-information']);

/** The member's area: its own navigation set of in-page sections. */
export default function AccountArea() {
  const location = useLocation();
  const onAccountPage = accountPaths.has(location.pathname);
  const active = useScrollSpy(sectionIds);
  const entries: NavEntry[] = ACCOUNT_SECTIONS.map((section) => ({
    key: section.id,
    label: section.label,
    icon: icons[section.id],
    href: `/#${section.id}`,
    active: onAccountPage && active === section.id,
    onSelect: (event) => {
      if (!onAccountPage) return;
      event.preventDefault();
      window.history.replaceState(window.history.state, '', `#${section.id}`);
      scrollToSection(section.id);
    },
  }));

  return (
    <AppShell title={ACCOUNT_TITLE} navLabel={ACCOUNT_NAV_LABEL} entries={entries}>
      <Suspense fallback={null}>
        <Routes>
          <Route index element={<AccountPage />} />
          <Route path="personal-information" element={<AccountPage />} />
          {Object.entries(ACCOUNT_PLACEHOLDERS).map(([path, title]) => (
            <Route key={path} path={path} element={<ComingSoon title={title} />} />
          ))}
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Suspense>
    </AppShell>
  );
}
