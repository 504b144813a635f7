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
  Textarea,
  tokens,
} from '@fluentui/react-components';
import type { DiscountPackage } from '@ums/contracts';
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { errorText } from '../../../lib/error-text.js';
import { useSavePackage } from './api.js';
import { DISCOUNT_PACKAGES as T } from './messages.js';

const useStyles = makeStyles({ fields: { display: 'grid', gap: tokens.spacingVerticalM } });

/** Create (pkg null) or edit a package's name and description. */
export function PackageDialog({
  open,
  pkg,
  onClose,
}: {
  open: boolean;
  pkg: DiscountPackage | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(_, data) => (data.open ? undefined : onClose())}>
      <DialogSurface>{open ? <PackageForm pkg={pkg} onClose={onClose} /> : null}</DialogSurface>
    </Dialog>
  );
}

function PackageForm({ pkg, onClose }: { pkg: DiscountPackage | null; onClose: () => void }) {
  const styles = useStyles();
  const save = useSavePackage();
  const [name, setName] = useState(pkg?.name ?? '');
  const [description, setDescription] = useState(pkg?.description ?? '');
  const saving = save.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || saving) return;
    const input = { name: name.trim(), description: description.trim() || null };
    save.mutate({ id: pkg?.discountPackageId ?? null, input }, { onSuccess: onClose });
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogBody>
        <DialogTitle>{pkg ? T.editTitle : T.createTitle}</DialogTitle>
        <DialogContent className={styles.fields}>
          {save.isError ? <ErrorBanner message={errorText(save.error, T.saveFailed)} error={save.error} /> : null}
          <Field label={T.name} required>
            <Input value={name} onChange={(_, data) => setName(data.value)} />
          </Field>
          <Field label={T.description}>
            <Textarea value={description} onChange={(_, data) => setDescription(data.value)} resize="vertical" />
          </Field>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            {T.cancel}
          </Button>
          <Button appearance="primary" type="submit" disabled={!name.trim() || saving}>
            {saving ? T.saving : T.save}
          </Button>
        </DialogActions>
      </DialogBody>
    </form>
  );
}
