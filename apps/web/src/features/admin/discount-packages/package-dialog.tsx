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
import { descriptionProblem, nameProblem } from '@ums/contracts/form-rules';
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { formFailure } from '../../../lib/field-errors.js';
import { useSavePackage } from './api.js';
import { DISCOUNT_PACKAGES as T } from './messages.js';

const useStyles = makeStyles({ fields: { display: 'grid', gap: tokens.spacingVerticalM } });

type PackageField = 'name' | 'description';
type PackageErrors = Partial<Record<PackageField, string>>;
/** The API's names for the dialog's fields (the same), for putting its field errors back on them. */
const PACKAGE_FIELDS: Readonly<Record<string, PackageField>> = { name: 'name', description: 'description' };

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
  const [problems, setProblems] = useState<PackageErrors>({});
  const saving = save.isPending;
  const failure = save.isError ? formFailure(save.error, PACKAGE_FIELDS, T.saveFailed) : null;
  const problem = (field: PackageField) => problems[field] ?? failure?.fields[field];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || saving) return;
    // The API's own checks of a package, so a refusal is known before anything is sent.
    const found = { name: nameProblem(name) ?? undefined, description: descriptionProblem(description) ?? undefined };
    setProblems(found);
    if (found.name || found.description) return;
    const input = { name: name.trim(), description: description.trim() || null };
    save.mutate({ id: pkg?.discountPackageId ?? null, input }, { onSuccess: onClose });
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogBody>
        <DialogTitle>{pkg ? T.editTitle : T.createTitle}</DialogTitle>
        <DialogContent className={styles.fields}>
          {failure ? <ErrorBanner message={failure.banner} error={save.error} /> : null}
          <Field label={T.name} required validationMessage={problem('name')}>
            <Input value={name} onChange={(_, data) => setName(data.value)} />
          </Field>
          <Field label={T.description} validationMessage={problem('description')}>
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
