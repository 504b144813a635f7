import { makeStyles, tokens } from '@fluentui/react-components';
import { ShieldErrorRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useAuth } from 'react-oidc-context';
import { useClientConfig } from '../../lib/client-config-context.js';
import { StatusScreen } from '../../components/status-screen.js';
import { AUTH_MESSAGES } from './messages.js';
import { consoleRoles } from './oidc-settings.js';

const useStyles = makeStyles({
  denied: {
    maxWidth: '36rem',
    margin: '10vh auto',
    padding: tokens.spacingHorizontalXXL,
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    textAlign: 'center',
  },
  icon: { fontSize: '48px', color: tokens.colorPaletteRedForeground1 },
  strong: { fontWeight: tokens.fontWeightSemibold },
});

/** The admin console's client-side gate, open to every console role; the API enforces each role's rights on every call. */
export function AdminGate({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const config = useClientConfig();
  const styles = useStyles();
  if (!auth.user) return <StatusScreen label={AUTH_MESSAGES.loadingUser} />;
  if (consoleRoles(auth.user.profile, config).length === 0) {
    return (
      <main className={styles.denied}>
        <ShieldErrorRegular className={styles.icon} aria-hidden />
        <h1>{AUTH_MESSAGES.accessDenied}</h1>
        <span>{AUTH_MESSAGES.accessDeniedFallback}</span>
        <span className={styles.strong}>{AUTH_MESSAGES.needsGroup(config.adminGroup)}</span>
      </main>
    );
  }
  return children;
}
