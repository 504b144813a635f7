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
import { passkeyNameProblem, SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { formFailure } from '../../../lib/field-errors.js';
import { useRenamePasskey, type PasskeySummary } from '../api/factors.js';
import { PasskeyNameField } from './passkey-name-field.js';

const useStyles = makeStyles({ form: { display: 'grid', gap: tokens.spacingVerticalM } });

/** A new name for one passkey, checked as the API checks it before it is sent. */
export function RenamePasskeyDialog({
  open,
  passkey,
  onDone,
}: {
  open: boolean;
  passkey: PasskeySummary;
  onDone: () => void;
}) {
  const styles = useStyles();
  const rename = useRenamePasskey();
  const [name, setName] = useState(passkey.name);
  const [problem, setProblem] = useState<string | null>(null);
  const failure = rename.isError ? formFailure(rename.error, { name: 'name' }, T.renameFailed) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = passkeyNameProblem(name);
    setProblem(found);
    if (found) return;
    rename.mutate({ id: passkey.id, name: name.trim() }, { onSuccess: onDone });
  };

  return (
    <Dialog open={open} onOpenChange={(_, data) => (data.open || rename.isPending ? undefined : onDone())}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{T.renameTitle}</DialogTitle>
            <DialogContent className={styles.form}>
              {failure ? <ErrorBanner message={failure.banner} error={rename.error} /> : null}
              <PasskeyNameField value={name} problem={problem ?? failure?.fields.name ?? null} onChange={setName} />
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" disabled={rename.isPending} onClick={onDone}>
                {T.cancel}
              </Button>
              <Button appearance="primary" type="submit" disabled={rename.isPending}>
                {T.save}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
