import {
  Badge,
  Button,
  Card,
  Field,
  makeStyles,
  ProgressBar,
  Text,
  tokens,
  type BadgeProps,
} from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from 'react-oidc-context';
import { paths } from '../../config/paths.js';
import { useClientConfig } from '../../lib/client-config-context.js';
import { clearSignOutIntent, hasSignOutIntent } from '../../lib/sign-out-intent.js';
import { announceSignOut, clearAuthStorage, forgetDpopKeys, storedIdToken } from '../auth/index.js';
import { logoutInFrame } from './frame-logout.js';
import { LOGOUT_MESSAGES, LOGOUT_STATUS, LOGOUT_TIMING, MAIN_APP_NAME, type LogoutStatus } from './messages.js';
import { buildLogoutUrl } from './logout-url.js';

const useStyles = makeStyles({
  page: { minHeight: '100vh', display: 'grid', placeItems: 'center', padding: tokens.spacingHorizontalL },
  card: { width: 'min(480px, 100%)', padding: tokens.spacingHorizontalXXL, gap: tokens.spacingVerticalL },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalS },
  row: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: tokens.spacingHorizontalM },
  done: { display: 'grid', gap: tokens.spacingVerticalS, textAlign: 'center' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
});

const badgeColor: Record<LogoutStatus, BadgeProps['color']> = {
  [LOGOUT_STATUS.waiting]: 'informative',
  [LOGOUT_STATUS.signingOut]: 'brand',
  [LOGOUT_STATUS.complete]: 'success',
  [LOGOUT_STATUS.error]: 'danger',
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface LogoutCompletePageProps {
  /** Leaves the app; replaced in tests. */
  redirect?: (url: string) => void;
}

/**
 * Signs out of this app and any companion apps, one after the other, then hands over to the provider: at once when
 * the app's own sign-out opened it, otherwise (a link from elsewhere) after the member confirms.
 */
export function LogoutCompletePage({ redirect = (url) => window.location.assign(url) }: LogoutCompletePageProps) {
  const [confirmed, setConfirmed] = useState(hasSignOutIntent);
  useEffect(clearSignOutIntent, []);
  return confirmed ? <SigningOut redirect={redirect} /> : <ConfirmSignOut onConfirm={() => setConfirmed(true)} />;
}

/** Asks before signing out: the page was opened by a link, not by the app's own sign-out. */
function ConfirmSignOut({ onConfirm }: { onConfirm: () => void }) {
  const styles = useStyles();
  const navigate = useNavigate();
  return (
    <main className={styles.page}>
      <Card className={styles.card}>
        <h1>{LOGOUT_MESSAGES.title}</h1>
        <Text>{LOGOUT_MESSAGES.confirmQuestion}</Text>
        <div className={styles.actions}>
          <Button appearance="primary" onClick={onConfirm}>
            {LOGOUT_MESSAGES.confirm}
          </Button>
          <Button onClick={() => void navigate(paths.home, { replace: true })}>{LOGOUT_MESSAGES.stay}</Button>
        </div>
      </Card>
    </main>
  );
}

function SigningOut({ redirect }: Required<LogoutCompletePageProps>) {
  const styles = useStyles();
  const config = useClientConfig();
  const { removeUser } = useAuth();
  const apps = [{ name: MAIN_APP_NAME, logoutUrl: null as string | null }, ...config.companionApps];
  const [statuses, setStatuses] = useState<LogoutStatus[]>(() => apps.map(() => LOGOUT_STATUS.waiting));
  // Read before storage is cleared: the provider signs out without asking when it sees the app's ID token.
  const [idTokenHint] = useState(storedIdToken);
  const [finished, setFinished] = useState(false);
  const appCount = apps.length;
  const companions = config.companionApps;
  const dpop = config.dpop;

  const logoutUrl = buildLogoutUrl(config.logoutUrl, {
    clientId: config.clientId,
    returnTo: `${window.location.origin}/`,
    idTokenHint,
  });

  useEffect(() => {
    let cancelled = false;
    const set = (index: number, status: LogoutStatus) =>
      setStatuses((current) => current.map((s, i) => (i === index ? status : s)));
    void (async () => {
      await sleep(0);
      for (let index = 0; index < appCount && !cancelled; index++) {
        set(index, LOGOUT_STATUS.signingOut);
        let ok = true;
        if (index === 0) {
          clearAuthStorage();
          await removeUser().catch(() => undefined);
          // Every tab's DPoP key goes too: the session their tokens came from is ending.
          if (dpop) await forgetDpopKeys().catch(() => undefined);
          // No other open tab hands this session to a new tab any more.
          announceSignOut();
        } else {
          const app = companions[index - 1]!;
          ok = await logoutInFrame(app.logoutUrl, app.name, LOGOUT_TIMING.frameTimeoutMs);
        }
        await sleep(LOGOUT_TIMING.perAppMs);
        if (cancelled) return;
        set(index, ok ? LOGOUT_STATUS.complete : LOGOUT_STATUS.error);
      }
      if (!cancelled) setFinished(true);
    })();
    return () => {
      cancelled = true;
    };
  }, [appCount, companions, removeUser, dpop]);

  useEffect(() => {
    if (!finished) return undefined;
    const timer = setTimeout(() => redirect(logoutUrl), LOGOUT_TIMING.redirectMs);
    return () => clearTimeout(timer);
  }, [finished, logoutUrl, redirect]);

  const done = statuses.filter((s) => s === LOGOUT_STATUS.complete || s === LOGOUT_STATUS.error).length;

  return (
    <main className={styles.page}>
      <Card className={styles.card}>
        <h1>{finished ? LOGOUT_MESSAGES.complete : LOGOUT_MESSAGES.title}</h1>
        <ul className={styles.list} aria-label="Applications">
          {apps.map((app, index) => (
            <li key={app.name} className={styles.row}>
              <Text>{app.name}</Text>
              <Badge appearance="tint" color={badgeColor[statuses[index]!]}>
                {statuses[index]}
              </Badge>
            </li>
          ))}
        </ul>
        <Field validationMessage={LOGOUT_MESSAGES.progress(done, apps.length)} validationState="none">
          <ProgressBar value={done} max={apps.length} thickness="large" aria-label="Sign-out progress" />
        </Field>
        {finished ? (
          <div className={styles.done} role="status">
            <Text weight="semibold">{LOGOUT_MESSAGES.completeDetail}</Text>
            <Text>{LOGOUT_MESSAGES.redirecting}</Text>
            <Button appearance="primary" onClick={() => redirect(logoutUrl)}>
              {LOGOUT_MESSAGES.signInNow}
            </Button>
          </div>
        ) : null}
      </Card>
    </main>
  );
}
