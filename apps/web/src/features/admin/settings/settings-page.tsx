import { Card, Link as FluentLink } from '@fluentui/react-components';
import { useAuth } from 'react-oidc-context';
import { useClientConfig } from '../../../lib/client-config-context.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { useConsoleRights } from '../console-roles.js';
import { SETTINGS } from './messages.js';

/** A read-only view of the run-time configuration the app received from the server. */
export function SettingsPage() {
  const styles = useAdminStyles();
  const config = useClientConfig();
  const auth = useAuth();
  const email = auth.user?.profile.email;
  const { roles } = useConsoleRights();
  const rows: [string, string][] = [
    [SETTINGS.rows.issuer, config.authority],
    [SETTINGS.rows.clientId, config.clientId],
    [SETTINGS.rows.adminGroup, config.adminGroup],
    [SETTINGS.rows.supportGroup, config.supportGroup],
    [SETTINGS.rows.catalogGroup, config.catalogGroup],
    [SETTINGS.rows.yourRoles, roles.join(', ')],
    [SETTINGS.rows.groupsClaim, config.groupsClaim],
    [SETTINGS.rows.roleClaim, config.roleClaim],
    [SETTINGS.rows.signedInAs, typeof email === 'string' ? email : (auth.user?.profile.sub ?? '')],
    [SETTINGS.rows.analytics, config.analyticsUrl ?? SETTINGS.analyticsOff],
    [SETTINGS.rows.companions, config.companionApps.map((a) => a.name).join(', ') || SETTINGS.none],
  ];
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{SETTINGS.title}</h1>
      <p className={styles.muted}>{SETTINGS.intro}</p>
      <Card className={styles.card}>
        <dl className={styles.facts}>
          {rows.map(([term, value]) => (
            <div key={term} style={{ display: 'contents' }}>
              <dt className={styles.term}>{term}</dt>
              <dd className={styles.definition}>{value}</dd>
            </div>
          ))}
        </dl>
        <FluentLink href={`${config.apiBase}/docs`} target="_blank" rel="noopener noreferrer">
          {SETTINGS.apiDocs}
        </FluentLink>
      </Card>
    </div>
  );
}
