import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';
import { lazy, Suspense, useState } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { useSectionStyles } from '../../../components/section-styles.js';
import { Spinner } from '../../../components/spinner.js';
import { ApiError } from '../../../lib/api-client.js';
import { errorText } from '../../../lib/error-text.js';
import { formatDateTime } from '../../../lib/format-date-time.js';
import { useLazyDialog } from '../../../lib/use-lazy-dialog.js';
import { useRegenerateRecoveryCodes, useRemoveTotp, useSecurityFactors } from '../api/factors.js';
import { RecoveryCodesDialog } from './recovery-codes-dialog.js';
import { TotpSetupDialog } from './totp-setup-dialog.js';

const ConfirmDialog = lazy(() =>
  import('../../../components/confirm-dialog.js').then((m) => ({ default: m.ConfirmDialog })),
);

const useStyles = makeStyles({
  heading: { margin: 0, fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300 },
  row: {
    display: 'flex',
    flexDirection: 'row',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalM,
  },
  text: { flex: '1 1 240px', minWidth: 0, display: 'grid', gap: tokens.spacingVerticalXXS },
  detail: { color: tokens.colorNeutralForeground3 },
});

type Asking = 'remove' | 'regenerate' | null;

/** The second factors: a place for passkeys, the authenticator app and the recovery codes. */
export function SecondFactors() {
  const styles = useStyles();
  const section = useSectionStyles();
  const factors = useSecurityFactors();
  const remove = useRemoveTotp();
  const regenerate = useRegenerateRecoveryCodes();
  const [settingUp, setSettingUp] = useState(false);
  // Each 'Set up' mounts a new dialog (a new key); closing keeps it mounted so the modal restores the page.
  const [setupRound, setSetupRound] = useState(0);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [showingCodes, setShowingCodes] = useState(false);
  const showCodes = (issued: string[] | undefined) => {
    if (!issued?.length) return;
    setCodes(issued);
    setShowingCodes(true);
  };
  const [asking, setAsking] = useState<Asking>(null);
  const confirm = useLazyDialog();

  if (factors.isPending) return <Spinner label={T.loading} />;
  if (factors.isError) {
    // Another identity provider keeps its own sign-in methods.
    if (factors.error instanceof ApiError && factors.error.status === 501) {
      return <p className={section.message}>{T.managedElsewhere}</p>;
    }
    return <ErrorBanner message={errorText(factors.error, T.loadFailed)} error={factors.error} />;
  }
  const { totp, recoveryCodes } = factors.data ?? {
    totp: { enabled: false, createdAt: null },
    recoveryCodes: { remaining: 0 },
  };
  const hasSecondFactor = totp.enabled || (factors.data?.passkeys.length ?? 0) > 0;
  const ask = (what: Asking) => {
    setAsking(what);
    confirm.show();
  };
  const busy = remove.isPending || regenerate.isPending;

  return (
    <>
      {/* Passkeys: listed here once they can be added on this page. */}
      <section aria-labelledby="second-factor-totp" className={mergeClasses(section.outlined, styles.row)}>
        <div className={styles.text}>
          <h4 id="second-factor-totp" className={styles.heading}>
            {T.authenticatorTitle}
          </h4>
          <p className={mergeClasses(section.message, styles.detail)}>
            {totp.enabled && totp.createdAt ? T.authenticatorOn(formatDateTime(totp.createdAt)) : T.authenticatorOff}
          </p>
        </div>
        {totp.enabled ? (
          <Button disabled={busy} onClick={() => ask('remove')}>
            {T.remove}
          </Button>
        ) : (
          <Button
            appearance="primary"
            onClick={() => {
              setSetupRound((n) => n + 1);
              setSettingUp(true);
            }}
          >
            {T.setUp}
          </Button>
        )}
      </section>
      {remove.isError ? <ErrorBanner message={errorText(remove.error, T.removeFailed)} error={remove.error} /> : null}
      {hasSecondFactor ? (
        <section aria-labelledby="second-factor-codes" className={mergeClasses(section.outlined, styles.row)}>
          <div className={styles.text}>
            <h4 id="second-factor-codes" className={styles.heading}>
              {T.recoveryTitle}
            </h4>
            <p className={mergeClasses(section.message, styles.detail)}>{T.remaining(recoveryCodes.remaining)}</p>
          </div>
          <Button disabled={busy} onClick={() => ask('regenerate')}>
            {T.regenerate}
          </Button>
        </section>
      ) : null}
      {regenerate.isError ? (
        <ErrorBanner message={errorText(regenerate.error, T.regenerateFailed)} error={regenerate.error} />
      ) : null}
      {setupRound > 0 ? (
        <TotpSetupDialog
          key={setupRound}
          open={settingUp}
          onCancel={() => setSettingUp(false)}
          onEnabled={() => setSettingUp(false)}
        />
      ) : null}
      {/* Kept mounted once shown so closing restores the page behind the modal. */}
      {codes ? <RecoveryCodesDialog open={showingCodes} codes={codes} onDone={() => setShowingCodes(false)} /> : null}
      {confirm.mounted ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={confirm.open}
            busy={busy}
            title={asking === 'remove' ? T.removeTitle : T.regenerateTitle}
            message={asking === 'remove' ? T.removeBody : T.regenerateBody}
            cancelLabel={T.cancel}
            confirmLabel={asking === 'remove' ? T.remove : T.regenerate}
            onCancel={confirm.hide}
            onConfirm={() =>
              asking === 'remove'
                ? remove.mutate(undefined, { onSettled: confirm.hide })
                : regenerate.mutate(undefined, {
                    onSettled: confirm.hide,
                    onSuccess: (issued) => showCodes(issued?.recoveryCodes),
                  })
            }
          />
        </Suspense>
      ) : null}
    </>
  );
}
