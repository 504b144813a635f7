import { CalendarLtrRegular, KeyRegular, PersonRegular, ReceiptRegular, ShieldRegular } from './icons.js';
import { lazy, Suspense, type ReactElement } from 'react';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { useScrollSpy } from '../../lib/use-scroll-spy.js';
import { AppShell, type NavEntry } from '../shell/index.js';
import { AccountPage } from './account-page.js';
import { ACCOUNT_SECTIONS, scrollToSection, type AccountSectionId } from './account-sections.js';
import { ACCOUNT_NAV_LABEL, ACCOUNT_PLACEHOLDERS, ACCOUNT_TITLE } from './messages.js';
import { useSectionLanding } from './use-section-landing.js';

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

const sectionIds: readonly string[] = ACCOUNT_SECTIONS.map((s) => s.id);

/** The section a path names (/payment-history), if it names one: the account page opens there. */
const sectionOf = (pathname: string) => {
  const id = pathname.replace(/^\/+|\/+$/g, '');
  return sectionIds.includes(id) ? id : null;
};

/** The member's area: its own navigation set of in-page sections. */
export default function AccountArea() {
  const location = useLocation();
  const navigate = useNavigate();
  const landingSection = sectionOf(location.pathname);
  const onAccountPage = location.pathname === '/' || landingSection !== null;
  const spied = useScrollSpy(sectionIds);
  const landing = useSectionLanding(landingSection === 'personal-information' ? null : landingSection);
  const active = landing && landingSection ? landingSection : spied;
  const entries: NavEntry[] = ACCOUNT_SECTIONS.map((section) => ({
    key: section.id,
    label: section.label,
    icon: icons[section.id],
    href: `/#${section.id}`,
    active: onAccountPage && active === section.id,
    onSelect: (event) => {
      if (!onAccountPage) return;
      event.preventDefault();
      // From a section's own address, the address follows the drawer (a copied link lands where it says).
      if (landingSection) return void navigate(`/#${section.id}`, { replace: true });
      window.history.replaceState(window.history.state, '', `#${section.id}`);
      scrollToSection(section.id);
    },
  }));

  return (
    <AppShell title={ACCOUNT_TITLE} navLabel={ACCOUNT_NAV_LABEL} entries={entries}>
      <Suspense fallback={null}>
        <Routes>
          <Route index element={<AccountPage />} />
          {sectionIds.map((id) => (
            <Route key={id} path={id} element={<AccountPage />} />
          ))}
          {Object.entries(ACCOUNT_PLACEHOLDERS).map(([path, title]) => (
            <Route key={path} path={path} element={<ComingSoon title={title} />} />
          ))}
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Suspense>
    </AppShell>
  );
}
