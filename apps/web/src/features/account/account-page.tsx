import { makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, type JSX } from 'react';
import { useLocation } from 'react-router';
import { LoginDetailsSection } from '../login-details/index.js';
import { PaymentHistorySection } from '../payment-history/index.js';
import { PersonalInformationSection } from '../personal-information/index.js';
import { SubscriptionsSection } from '../subscriptions/index.js';
import { ACCOUNT_SECTIONS, scrollToSection, type AccountSectionId } from './account-sections.js';
import { ACCOUNT_TITLE } from './messages.js';

const sections: Record<AccountSectionId, () => JSX.Element> = {
  'personal-information': PersonalInformationSection,
  'login-details': LoginDetailsSection,
  'payment-history': PaymentHistorySection,
  subscriptions: SubscriptionsSection,
};

const useStyles = makeStyles({
  page: { maxWidth: '960px', display: 'grid', gap: tokens.spacingVerticalXXL },
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
