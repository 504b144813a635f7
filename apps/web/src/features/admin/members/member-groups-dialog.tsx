import {
  Button,
  Checkbox,
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
import { groupsProblem } from '@ums/contracts/form-rules';
import { CONSOLE_ROLES } from '@ums/contracts/roles';
import { useClientConfig } from '../../../lib/client-config-context.js';
import { roleGroupsOf } from '../../auth/index.js';
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { formFailure } from '../../../lib/field-errors.js';
import { groupsText, parseGroupsText } from './member-action-draft.js';
import { MEMBERS } from './messages.js';

/** The API's name for the field, each group's errors (`groups.0`) included. */
const GROUPS_FIELDS: Readonly<Record<string, 'groups'>> = { groups: 'groups' };

const useStyles = makeStyles({
  fields: { display: 'grid', gap: tokens.spacingVerticalM },
  roles: { display: 'grid', gap: tokens.spacingVerticalXS, border: 'none', margin: 0, padding: 0 },
  legend: { fontWeight: tokens.fontWeightSemibold, padding: 0, marginBottom: tokens.spacingVerticalXS },
  resumed: { margin: 0 },
});

export interface MemberGroupsDialogProps {
  open: boolean;
  /** The field's text when the dialog opens: the member's groups, or what was typed before a step-up sign-in. */
  initial: string;
  /** The administrator has just signed in again for this change: say that one press finishes it. */
  resumed: boolean;
  busy: boolean;
  /** The save's refusal (a step-up refusal is not one: the tab is leaving to sign in). */
  error: unknown;
  onCancel: () => void;
  onSave: (text: string, groups: string[]) => void;
}

/**
 * Replaces a member's groups, typed as one line separated by commas, with a box for each console role that puts its
 * group in the line or takes it out (the line stays the one thing saved); the API's refusal is shown above the field.
 */
export function MemberGroupsDialog({ open, onCancel, ...form }: MemberGroupsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(_, data) => (data.open || form.busy ? undefined : onCancel())}>
      <DialogSurface>{open ? <MemberGroupsForm onCancel={onCancel} {...form} /> : null}</DialogSurface>
    </Dialog>
  );
}

function MemberGroupsForm({ initial, resumed, busy, error, onCancel, onSave }: Omit<MemberGroupsDialogProps, 'open'>) {
  const styles = useStyles();
  const [text, setText] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const roleGroups = roleGroupsOf(useClientConfig());
  const typed = parseGroupsText(text);
  const failure = error ? formFailure(error, GROUPS_FIELDS, MEMBERS.actionFailed) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const groups = parseGroupsText(text);
    // The API's own rule for groups, so a refusal is known before anything is sent.
    const found = groupsProblem(groups);
    setProblem(found);
    if (!found) onSave(text, groups);
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogBody>
        <DialogTitle>{MEMBERS.groupsTitle}</DialogTitle>
        <DialogContent className={styles.fields}>
          {resumed ? (
            <p role="status" className={styles.resumed}>
              {MEMBERS.groupsResumed}
            </p>
          ) : null}
          {failure ? <ErrorBanner message={failure.banner} error={error} /> : null}
          <fieldset className={styles.roles}>
            <legend className={styles.legend}>{MEMBERS.rolesLabel}</legend>
            {CONSOLE_ROLES.map((role) => (
              <Checkbox
                key={role}
                checked={typed.includes(roleGroups[role])}
                label={`${roleGroups[role]}: ${MEMBERS.roleHints[role]}`}
                onChange={(_, data) =>
                  setText(
                    groupsText(
                      data.checked
                        ? [...typed.filter((group) => group !== roleGroups[role]), roleGroups[role]]
                        : typed.filter((group) => group !== roleGroups[role]),
                    ),
                  )
                }
              />
            ))}
          </fieldset>
          <Field
            label={MEMBERS.groupsLabel}
            hint={MEMBERS.groupsHint}
            validationMessage={problem ?? failure?.fields.groups}
          >
            <Input value={text} onChange={(_, data) => setText(data.value)} />
          </Field>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={busy}>
            {MEMBERS.cancel}
          </Button>
          <Button appearance="primary" type="submit" disabled={busy}>
            {busy ? MEMBERS.savingGroups : MEMBERS.saveGroups}
          </Button>
        </DialogActions>
      </DialogBody>
    </form>
  );
}
