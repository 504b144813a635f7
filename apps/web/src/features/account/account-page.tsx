import { makeStyles, tokens } from '@fluentui/react-components';
import { lazy, Suspense, useEffect, useRef, useState, type JSX } from 'react';
import { useLocation } from 'react-router';
import { LoginDetailsSection } from '../login-details/index.js';
import { PaymentHistorySection } from '../payment-history/index.js';
import { PersonalInformationSection } from '../personal-information/index.js';
import { SubscriptionsSection } from '../subscriptions/index.js';
import { ACCOUNT_PAGE_MAX_WIDTH } from '../../config/layout.js';
import { whenNear } from '../../lib/when-near.js';
import { ACCOUNT_SECTIONS, onSectionAsked, scrollToSection, type AccountSectionId } from './account-sections.js';
import { ACCOUNT_TITLE } from './messages.js';

// Not part of the account page's first load (its JavaScript budget, measured as the browser loads the page until it
// is idle): fetched when the section comes into view, by scrolling or by a link to #security.
const SecuritySection = lazy(() => import('../security/index.js').then((m) => ({ default: m.SecuritySection })));

/**
 * Renders its content once the placeholder comes into the viewport, or the member asks for the section (at once
 * without an observer).
 */
function WhenNear({ section, children }: { section: AccountSectionId; children: JSX.Element }) {
  const placeholder = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (near) return;
    return onSectionAsked((id) => {
      if (id === section) setNear(true);
    });
  }, [near, section]);
  useEffect(() => {
    if (near || !placeholder.current) return;
    // A screen ahead, the section would load with the page at any common height; in view, it costs a blink.
    return whenNear(placeholder.current, () => setNear(true));
  }, [near]);
  return near ? (
    <Suspense fallback={<div style={{ minHeight: 240 }} />}>{children}</Suspense>
  ) : (
    <div ref={placeholder} style={{ minHeight: 240 }} />
  );
}

const sections: Record<AccountSectionId, () => JSX.Element> = {
  'personal-information': PersonalInformationSection,
  'login-details': LoginDetailsSection,
  'payment-history': PaymentHistorySection,
  subscriptions: SubscriptionsSection,
  security: () => (
    <WhenNear section="security">
      <SecuritySection />
    </WhenNear>
  ),
};

const useStyles = makeStyles({
  page: { maxWidth: `${ACCOUNT_PAGE_MAX_WIDTH}px`, display: 'grid', gap: tokens.spacingVerticalXXL },
  section: { scrollMarginTop: '80px' },
});

/** The account page: one section per part of the member's account. */
export function AccountPage() {
  const styles = useStyles();
  const { hash } = useLocation();
  useEffect(() => {
    if (hash) scrollToSection(hash.slice(1));
  }, [hash]);
  return (
    <div className={styles.page}>
      <h1>{ACCOUNT_TITLE}</h1>
      {ACCOUNT_SECTIONS.map((section) => {
        const Content = sections[section.id];
        return (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className={styles.section}>
            <h2 id={`${section.id}-title`}>{section.label}</h2>
            <Content />
          </section>
        );
      })}
    </div>
  );
}
