import { makeStyles, tokens } from '@fluentui/react-components';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { ACCOUNT_SECTIONS, ACCOUNT_TITLE, scrollToSection } from './account-sections.js';

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
      {ACCOUNT_SECTIONS.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className={styles.section}>
          <h2 id={`${section.id}-title`}>{section.label}</h2>
        </section>
      ))}
    </div>
  );
}
