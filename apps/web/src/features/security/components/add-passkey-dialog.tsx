import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import { passkeyNameProblem, SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { useSavePasskey } from '../api/factors.js';
import { passkeyAddProblem } from '../passkey-name.js';
import { PasskeyNameField } from './passkey-name-field.js';
import { RecoveryCodesBody } from './recovery-codes-dialog.js';

const useStyles = makeStyles({ form: { display: 'grid', gap: tokens.spacingVerticalM } });

/**
 * Names the passkey the browser just made and saves it. When that was the account's first second factor the same
 * dialog turns into the recovery codes, so no second modal opens while this one is closing.
 */
export function AddPasskeyDialog({
  open,
  response,
  suggestedName,
  onCancel,
  onAdded,
}: {
  open: boolean;
  /** The browser's answer to the creation options. */
  response: RegistrationResponseJSON;
  suggestedName: string;
  onCancel: () => void;
  /** Called once the passkey is saved and any recovery codes issued with it are saved too. */
  onAdded: () => void;
}) {
  const styles = useStyles();
  const save = useSavePasskey();
  const [name, setName] = useState(suggestedName);
  const [problem, setProblem] = useState<string | null>(null);
  const [issued, setIssued] = useState<string[] | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = passkeyNameProblem(name);
    setProblem(found);
    if (found) return;
    save.mutate(
      { response, name: name.trim() },
      { onSuccess: (answer) => (answer?.recoveryCodes?.length ? setIssued(answer.recoveryCodes) : onAdded()) },
    );
  };

  if (issued) {
    return (
      <Dialog open={open} modalType="alert">
        <DialogSurface>
          <RecoveryCodesBody codes={issued} onDone={onAdded} />
        </DialogSurface>
      </Dialog>
    );
  }
  return (
    <Dialog open={open} onOpenChange={(_, data) => (data.open || save.isPending ? undefined : onCancel())}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{T.passkeyNameTitle}</DialogTitle>
            <DialogContent className={styles.form}>
              <p>{T.passkeyNameIntro}</p>
              {save.isError ? <ErrorBanner message={passkeyAddProblem(save.error)} error={save.error} /> : null}
              <PasskeyNameField value={name} problem={problem} onChange={setName} />
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" disabled={save.isPending} onClick={onCancel}>
                {T.cancel}
              </Button>
              <Button appearance="primary" type="submit" disabled={save.isPending}>
                {T.save}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
