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
import { useRemoveTotp, useSecurityFactors } from '../api/factors.js';
import { Passkeys } from './passkeys.js';
import { RegenerateCodesDialog } from './regenerate-codes-dialog.js';
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

/** The second factors: passkeys, the authenticator app and the recovery codes. */
export function SecondFactors() {
  const styles = useStyles();
  const section = useSectionStyles();
  const factors = useSecurityFactors();
  const remove = useRemoveTotp();
  const [settingUp, setSettingUp] = useState(false);
  // Each 'Set up' mounts a new dialog (a new key); closing keeps it mounted so the modal restores the page.
  const [setupRound, setSetupRound] = useState(0);
  // The same for new recovery codes: each round asks again, and the codes it shows are gone once it closes.
  const [regenerating, setRegenerating] = useState(false);
  const [regenerateRound, setRegenerateRound] = useState(0);
  const confirm = useLazyDialog();

  if (factors.isPending) return <Spinner label={T.loading} />;
  if (factors.isError) {
    // Another identity provider keeps its own sign-in methods.
    if (factors.error instanceof ApiError && factors.error.status === 501) {
      return <p className={section.message}>{T.managedElsewhere}</p>;
    }
    return <ErrorBanner message={errorText(factors.error, T.loadFailed)} error={factors.error} />;
  }
  const { passkeys, totp, recoveryCodes } = factors.data ?? {
    passkeys: [],
    totp: { enabled: false, createdAt: null },
    recoveryCodes: { remaining: 0 },
  };
  const hasSecondFactor = totp.enabled || passkeys.length > 0;

  return (
    <>
      <Passkeys passkeys={passkeys} />
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
          <Button disabled={remove.isPending} onClick={confirm.show}>
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
          <Button
            disabled={remove.isPending}
            onClick={() => {
              setRegenerateRound((n) => n + 1);
              setRegenerating(true);
            }}
          >
            {T.regenerate}
          </Button>
        </section>
      ) : null}
      {setupRound > 0 ? (
        <TotpSetupDialog
          key={setupRound}
          open={settingUp}
          onCancel={() => setSettingUp(false)}
          onEnabled={() => setSettingUp(false)}
        />
      ) : null}
      {regenerateRound > 0 ? (
        <RegenerateCodesDialog key={regenerateRound} open={regenerating} onClose={() => setRegenerating(false)} />
      ) : null}
      {confirm.mounted ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={confirm.open}
            busy={remove.isPending}
            title={T.removeTitle}
            message={T.removeBody}
            cancelLabel={T.cancel}
            confirmLabel={T.remove}
            onCancel={confirm.hide}
            onConfirm={() => remove.mutate(undefined, { onSettled: confirm.hide })}
          />
        </Suspense>
      ) : null}
    </>
  );
}
