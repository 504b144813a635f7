import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';
import { useEffect, useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { Spinner } from '../../../components/spinner.js';
import { errorText } from '../../../lib/error-text.js';
import { useConfirmTotp, useStartTotpSetup } from '../api/factors.js';
import { RecoveryCodesBody } from './recovery-codes-dialog.js';

const useStyles = makeStyles({
  qr: { width: '192px', height: '192px' },
  keyLine: { margin: 0 },
  key: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase400, overflowWrap: 'anywhere' },
  form: { display: 'grid', gap: tokens.spacingVerticalM },
});

/** "JBSWY3DPEHPK3PXP" → "JBSW Y3DP EHPK 3PXP": easier to read and type. */
export const groupsOfFour = (key: string) => key.replace(/(.{4})(?=.)/g, '$1 ');

/** A 6-digit code once spaces are gone, or null. */
export const sixDigits = (input: string) => {
  const digits = input.replace(/\s/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
};

// qrcode loads only when the dialog opens: it stays out of the account page's first load. React draws the SVG from
// the modules (the page's Trusted Types policy refuses innerHTML).
function useQrModules(text: string | undefined) {
  const [qr, setQr] = useState<{ size: number; path: string } | null>(null);
  useEffect(() => {
    if (!text) return;
    let live = true;
    void import('qrcode')
      .then(({ create }) => {
        const { modules } = create(text, { errorCorrectionLevel: 'M' });
        let path = '';
        for (let y = 0; y < modules.size; y++)
          for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) path += `M${x} ${y}h1v1h-1z`;
        if (live) setQr({ size: modules.size, path });
      })
      .catch(() => live && setQr(null));
    return () => {
      live = false;
    };
  }, [text]);
  return qr;
}

/**
 * Sets up an authenticator app: the key as a QR code and as text, then a code to confirm it. When that was the
 * account's first second factor the same dialog turns into the recovery codes, so no second modal opens while this
 * one is closing.
 */
export function TotpSetupDialog({
  open,
  onCancel,
  onEnabled,
}: {
  open: boolean;
  onCancel: () => void;
  /** Called once the app is on and any recovery codes issued with it are saved. */
  onEnabled: () => void;
}) {
  const styles = useStyles();
  const start = useStartTotpSetup();
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [issued, setIssued] = useState<string[] | null>(null);
  const { mutate: begin } = start;
  useEffect(() => begin(), [begin]);
  const setup = start.data ?? undefined;
  const qr = useQrModules(setup?.otpauthUrl);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const digits = sixDigits(code);
    setInvalid(digits === null);
    if (digits === null) return;
    confirm.mutate(digits, {
      onSuccess: (answer) => (answer?.recoveryCodes?.length ? setIssued(answer.recoveryCodes) : onEnabled()),
    });
  };

  if (issued) {
    return (
      <Dialog open={open} modalType="alert">
        <DialogSurface>
          <RecoveryCodesBody codes={issued} onDone={onEnabled} />
        </DialogSurface>
      </Dialog>
    );
  }
  return (
    <Dialog open={open} onOpenChange={(_, data) => (data.open || confirm.isPending ? undefined : onCancel())}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{T.setupTitle}</DialogTitle>
            <DialogContent className={styles.form}>
              {start.isPending ? <Spinner label={T.setupLoading} /> : null}
              {start.isError ? (
                <ErrorBanner message={errorText(start.error, T.setupFailed)} error={start.error} />
              ) : null}
              {setup ? (
                <>
                  <p>{T.setupIntro}</p>
                  {qr ? (
                    <svg
                      className={styles.qr}
                      role="img"
                      aria-label={T.qrLabel}
                      viewBox={`-2 -2 ${qr.size + 4} ${qr.size + 4}`}
                      shapeRendering="crispEdges"
                    >
                      <rect x={-2} y={-2} width={qr.size + 4} height={qr.size + 4} fill="#fff" />
                      <path d={qr.path} fill="#000" />
                    </svg>
                  ) : null}
                  <p className={styles.keyLine}>
                    {T.keyLabel}: <code className={styles.key}>{groupsOfFour(setup.secret)}</code>
                  </p>
                  {confirm.isError ? (
                    <ErrorBanner message={errorText(confirm.error, T.confirmFailed)} error={confirm.error} />
                  ) : null}
                  <Field label={T.codeLabel} required validationMessage={invalid ? T.codeInvalid : undefined}>
                    <Input
                      value={code}
                      onChange={(_, data) => setCode(data.value)}
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      maxLength={9}
                    />
                  </Field>
                </>
              ) : null}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" disabled={confirm.isPending} onClick={onCancel}>
                {T.cancel}
              </Button>
              <Button appearance="primary" type="submit" disabled={!setup || confirm.isPending}>
                {T.confirm}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
