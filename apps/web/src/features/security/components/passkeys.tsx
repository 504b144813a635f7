import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import { SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';
import { lazy, Suspense, useState } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { useSectionStyles } from '../../../components/section-styles.js';
import { StepUpRequiredError } from '../../../lib/api-client.js';
import { errorText } from '../../../lib/error-text.js';
import { formatDateTime } from '../../../lib/format-date-time.js';
import { useLazyDialog } from '../../../lib/use-lazy-dialog.js';
import { forgetUnsavedPasskey, useCreatePasskey, useRemovePasskey, type PasskeySummary } from '../api/factors.js';
import { passkeyAddProblem, suggestPasskeyName } from '../passkey-name.js';
import { AddPasskeyDialog } from './add-passkey-dialog.js';
import { RenamePasskeyDialog } from './rename-passkey-dialog.js';

const ConfirmDialog = lazy(() =>
  import('../../../components/confirm-dialog.js').then((m) => ({ default: m.ConfirmDialog })),
);

/** A refusal for want of a recent sign-in shows nothing: the member is already on the way to sign in again. */
const shownFailure = (error: unknown) => (error instanceof StepUpRequiredError ? null : error);

const useStyles = makeStyles({
  box: { padding: tokens.spacingHorizontalM, gap: tokens.spacingVerticalM },
  heading: { margin: 0, fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300 },
  detail: { color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalS },
  passkey: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    paddingBlock: tokens.spacingVerticalS,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  text: { flex: '1 1 240px', minWidth: 0, display: 'grid', gap: tokens.spacingVerticalXXS },
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
  add: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM },
});

function PasskeyRow({
  passkey,
  busy,
  onRename,
  onRemove,
}: {
  passkey: PasskeySummary;
  busy: boolean;
  onRename: () => void;
  onRemove: () => void;
}) {
  const styles = useStyles();
  const section = useSectionStyles();
  return (
    <li className={styles.passkey}>
      <div className={styles.text}>
        <p className={mergeClasses(section.message, styles.name)}>
          {passkey.name}
          <span className={section.badge}>{passkey.backedUp ? T.passkeySynced : T.passkeyDeviceOnly}</span>
        </p>
        <p className={mergeClasses(section.message, styles.detail)}>
          {`${T.passkeyAdded(formatDateTime(passkey.createdAt))} · ${T.passkeyLastUsed(
            passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : null,
          )}`}
        </p>
      </div>
      <div className={styles.actions}>
        <Button aria-label={T.renameLabel(passkey.name)} disabled={busy} onClick={onRename}>
          {T.rename}
        </Button>
        <Button aria-label={T.removeLabel(passkey.name)} disabled={busy} onClick={onRemove}>
          {T.remove}
        </Button>
      </div>
    </li>
  );
}

/**
 * The member's passkeys: each with its dates and whether it is synced, renamed or removed here; "Add a passkey" asks
 * the browser for a new one, then for its name. One dialog at a time, each kept mounted once shown so closing it
 * restores the page behind the modal.
 */
export function Passkeys({ passkeys }: { passkeys: PasskeySummary[] }) {
  const styles = useStyles();
  const section = useSectionStyles();
  const create = useCreatePasskey();
  const remove = useRemovePasskey();
  // Each round mounts a new dialog (a new key), so a name typed for the last passkey is gone.
  const [adding, setAdding] = useState<{
    round: number;
    rpId: string | undefined;
    response: RegistrationResponseJSON;
    name: string;
  } | null>(null);
  const [addOpen, setAddOpen] = useState(false);
  const [renaming, setRenaming] = useState<{ round: number; passkey: PasskeySummary } | null>(null);
  const [renameOpen, setRenameOpen] = useState(false);
  const [removing, setRemoving] = useState<PasskeySummary | null>(null);
  const confirm = useLazyDialog();
  const busy = create.isPending || remove.isPending;

  const add = () => {
    remove.reset();
    create.mutate(undefined, {
      onSuccess: ({ rpId, response }) => {
        setAdding((last) => ({
          round: (last?.round ?? 0) + 1,
          rpId,
          response,
          name: suggestPasskeyName(
            passkeys.map((p) => p.name),
            navigator.userAgent,
          ),
        }));
        setAddOpen(true);
      },
    });
  };

  return (
    <section aria-labelledby="second-factor-passkeys" className={mergeClasses(section.outlined, styles.box)}>
      <h4 id="second-factor-passkeys" className={styles.heading}>
        {T.passkeysTitle}
      </h4>
      <p className={mergeClasses(section.message, styles.detail)}>{T.passkeysIntro}</p>
      {passkeys.length > 0 ? (
        <ul className={styles.list} aria-label={T.passkeysTitle}>
          {passkeys.map((passkey) => (
            <PasskeyRow
              key={passkey.id}
              passkey={passkey}
              busy={busy}
              onRename={() => {
                setRenaming((last) => ({ round: (last?.round ?? 0) + 1, passkey }));
                setRenameOpen(true);
              }}
              onRemove={() => {
                remove.reset();
                setRemoving(passkey);
                confirm.show();
              }}
            />
          ))}
        </ul>
      ) : (
        <p className={section.message}>{T.passkeysNone}</p>
      )}
      {shownFailure(create.error) ? (
        <ErrorBanner message={passkeyAddProblem(create.error)} error={create.error} />
      ) : null}
      {shownFailure(remove.error) ? (
        <ErrorBanner message={errorText(remove.error, T.removePasskeyFailed)} error={remove.error} />
      ) : null}
      <div className={styles.add}>
        <Button appearance="primary" disabled={busy} onClick={add}>
          {T.addPasskey}
        </Button>
        <span role="status" className={mergeClasses(section.message, styles.detail)}>
          {create.isPending ? T.passkeyWaiting : ''}
        </span>
      </div>
      {adding ? (
        <AddPasskeyDialog
          key={adding.round}
          open={addOpen}
          response={adding.response}
          suggestedName={adding.name}
          onCancel={() => {
            setAddOpen(false);
            void forgetUnsavedPasskey(adding.rpId, adding.response.id);
          }}
          onAdded={() => setAddOpen(false)}
        />
      ) : null}
      {renaming ? (
        <RenamePasskeyDialog
          key={renaming.round}
          open={renameOpen}
          passkey={renaming.passkey}
          onDone={() => setRenameOpen(false)}
        />
      ) : null}
      {confirm.mounted && removing ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={confirm.open}
            busy={remove.isPending}
            title={T.removePasskeyTitle(removing.name)}
            message={T.removePasskeyBody}
            cancelLabel={T.cancel}
            confirmLabel={T.remove}
            onCancel={confirm.hide}
            onConfirm={() => remove.mutate(removing.id, { onSettled: confirm.hide })}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
