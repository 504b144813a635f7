import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { SECOND_FACTOR_UI_TEXTS, SECURITY_EVENT_LABELS, type DeviceSession } from '@ums/contracts/security';
import { lazy, Suspense } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { useSectionStyles } from '../../../components/section-styles.js';
import { Spinner } from '../../../components/spinner.js';
import { ApiError } from '../../../lib/api-client.js';
import { errorText } from '../../../lib/error-text.js';
import { useLazyDialog } from '../../../lib/use-lazy-dialog.js';
import { SecondFactors } from './second-factors.js';
import { useDeviceSessions, useEndSessions, useSecurityActivity } from '../api/security.js';
import { deviceName, formatDateTime, SECURITY as T, sessionLine } from '../messages.js';

// Fetched when "Sign out everywhere else" is first chosen.
const ConfirmDialog = lazy(() =>
  import('../../../components/confirm-dialog.js').then((m) => ({ default: m.ConfirmDialog })),
);

const useStyles = makeStyles({
  heading: { margin: 0, fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400 },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalS },
  device: {
    flexDirection: 'row',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalM,
  },
  deviceText: { flex: '1 1 240px', minWidth: 0 },
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  detail: { color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
  actions: { display: 'flex', justifyContent: 'flex-start' },
  activity: {
    display: 'grid',
    gridTemplateColumns: 'minmax(160px, auto) 1fr',
    columnGap: tokens.spacingHorizontalL,
    paddingBlock: tokens.spacingVerticalXS,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
});

function DeviceRow({ session, onSignOut, busy }: { session: DeviceSession; onSignOut: () => void; busy: boolean }) {
  const styles = useStyles();
  const section = useSectionStyles();
  const name = deviceName(session);
  return (
    <li className={mergeClasses(section.outlined, styles.device)} aria-label={name}>
      <div className={styles.deviceText}>
        <p className={mergeClasses(section.message, styles.name)}>
          {name}
          {session.current ? <span className={section.badge}>{T.thisDevice}</span> : null}
        </p>
        <p className={mergeClasses(section.message, styles.detail)}>{sessionLine(session)}</p>
      </div>
      {session.current ? null : (
        <Button appearance="secondary" aria-label={T.signOutLabel(name)} disabled={busy} onClick={onSignOut}>
          {T.signOut}
        </Button>
      )}
    </li>
  );
}

function Devices() {
  const styles = useStyles();
  const section = useSectionStyles();
  const sessions = useDeviceSessions();
  const end = useEndSessions();
  const asking = useLazyDialog();

  if (sessions.isPending) return <Spinner label={T.devicesLoading} />;
  if (sessions.isError) {
    // Another identity provider keeps its own sessions: say so rather than show an error.
    if (sessions.error instanceof ApiError && sessions.error.status === 501) {
      return <p className={section.message}>{T.notHere}</p>;
    }
    return <ErrorBanner message={errorText(sessions.error, T.devicesFailed)} error={sessions.error} />;
  }
  const others = sessions.data.filter((s) => !s.current);
  return (
    <>
      {end.isError ? <ErrorBanner message={errorText(end.error, T.signOutFailed)} error={end.error} /> : null}
      <ul className={styles.list} aria-label={T.devicesTitle}>
        {sessions.data.map((session) => (
          <DeviceRow key={session.id} session={session} busy={end.isPending} onSignOut={() => end.mutate(session.id)} />
        ))}
      </ul>
      {others.length === 0 ? (
        <p className={section.message}>{T.onlyThisDevice}</p>
      ) : (
        <div className={styles.actions}>
          <Button disabled={end.isPending} onClick={asking.show}>
            {T.signOutEverywhere}
          </Button>
        </div>
      )}
      {asking.mounted ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={asking.open}
            busy={end.isPending}
            title={T.signOutEverywhereTitle}
            message={T.signOutEverywhereBody}
            cancelLabel={T.cancel}
            confirmLabel={T.signOutEverywhere}
            onCancel={asking.hide}
            onConfirm={() => end.mutate(null, { onSettled: asking.hide })}
          />
        </Suspense>
      ) : null}
    </>
  );
}

function Activity() {
  const styles = useStyles();
  const section = useSectionStyles();
  const activity = useSecurityActivity();
  if (activity.isPending) return <Spinner label={T.activityLoading} />;
  if (activity.isError) {
    return <ErrorBanner message={errorText(activity.error, T.activityFailed)} error={activity.error} />;
  }
  if (activity.rows.length === 0) return <p className={section.message}>{T.activityEmpty}</p>;
  return (
    <>
      <ul className={styles.list} aria-label={T.activityTitle}>
        {activity.rows.map((entry, i) => (
          <li key={`${entry.at}-${i}`} className={styles.activity}>
            <span className={mergeClasses(section.message, styles.name)}>{SECURITY_EVENT_LABELS[entry.event]}</span>
            <span className={mergeClasses(section.message, styles.detail)}>
              {[formatDateTime(entry.at), deviceName(entry), entry.ipAddress].filter(Boolean).join(' · ')}
            </span>
          </li>
        ))}
      </ul>
      {activity.hasNextPage ? (
        <div className={styles.actions}>
          <Button disabled={activity.isFetchingNextPage} onClick={() => void activity.fetchNextPage()}>
            {T.showMore}
          </Button>
        </div>
      ) : null}
    </>
  );
}

/** The account's security: its second factors, its signed-in devices (each can be signed out) and its recent activity. */
export function SecuritySection() {
  const section = useSectionStyles();
  const styles = useStyles();
  return (
    <div className={section.card}>
      <p className={section.subtitle}>{T.subtitle}</p>
      <h3 className={styles.heading}>{SECOND_FACTOR_UI_TEXTS.title}</h3>
      <SecondFactors />
      <h3 className={styles.heading}>{T.devicesTitle}</h3>
      <Devices />
      <h3 className={styles.heading}>{T.activityTitle}</h3>
      <Activity />
    </div>
  );
}
