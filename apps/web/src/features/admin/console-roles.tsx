import { makeStyles, tokens } from '@fluentui/react-components';
import { hasRight, ROLE_TEXTS, type ConsoleRight } from '@ums/contracts/roles';
import type { ReactNode } from 'react';
import { useAuth } from 'react-oidc-context';
import { Link } from 'react-router';
import { useClientConfig } from '../../lib/client-config-context.js';
import { consoleRoles } from '../auth/index.js';
import { ADMIN_ROLE_TEXT } from './messages.js';

const useStyles = makeStyles({
  box: { display: 'grid', justifyItems: 'center', gap: tokens.spacingVerticalM, padding: tokens.spacingVerticalXXXL },
  title: { textAlign: 'center' },
  link: { color: tokens.colorBrandForegroundLink },
});

/**
 * What the signed-in person's console roles allow, from their ID token's groups: the console shows only that. The API
 * decides on every call whatever this says (the route policy table), so this only spares people buttons that would be
 * refused.
 */
export function useConsoleRights() {
  const auth = useAuth();
  const config = useClientConfig();
  const roles = consoleRoles(auth.user?.profile, config);
  return { roles, can: (right: ConsoleRight) => hasRight(roles, right) };
}

/** A screen for the roles that hold `right`; anyone else sees what their role does not include, and whom to ask. */
export function RoleRoute({ right, home, children }: { right: ConsoleRight; home: string; children: ReactNode }) {
  const { can } = useConsoleRights();
  const styles = useStyles();
  if (can(right)) return children;
  return (
    <section className={styles.box}>
      <h1 className={styles.title}>{ROLE_TEXTS.lacks(right)}</h1>
      <span>{ROLE_TEXTS.askFor(right)}</span>
      <Link to={home} className={styles.link}>
        {ADMIN_ROLE_TEXT.home}
      </Link>
    </section>
  );
}
