import { Badge, Button, makeStyles, tokens } from '@fluentui/react-components';
import {
  EMAIL_CHANGE_LINK_HOURS,
  EMAIL_CHANGE_TEXTS as T,
  type EmailChangeStatus,
} from '@ums/contracts/self-service/email-change';
import { ErrorBanner, SuccessBanner } from '../../../components/error-banner.js';
import { errorText } from '../../../lib/error-text.js';
import { useCancelEmailChange, useResendEmailChange } from '../api/email-change.js';
import { LOGIN_DETAILS } from '../messages.js';

// What only some members see in the email row, fetched when it is shown: most addresses are verified, with no
// change waiting and nothing new to say.

const useStyles = makeStyles({
  pending: { display: 'grid', gap: tokens.spacingVerticalXS, flexBasis: '100%' },
  waiting: { margin: 0, fontWeight: tokens.fontWeightSemibold },
  detail: { margin: 0, color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
});

/** What the row says once something happened to the address: it changed (elsewhere), a link went again, or not. */
export type EmailChangeNotice = { kind: 'changed'; email: string } | { kind: 'resent' } | { kind: 'cancelled' };

export function EmailChangeNoticeBanner({ notice }: { notice: EmailChangeNotice }) {
  const message =
    notice.kind === 'changed' ? T.changedHere(notice.email) : notice.kind === 'resent' ? T.resent : T.cancelled;
  return <SuccessBanner message={message} />;
}

/** Beside an address the member has not shown to be theirs (never opened a link sent to it). */
export function UnverifiedBadge() {
  return (
    <Badge appearance="tint" color="warning">
      {T.unverified}
    </Badge>
  );
}

/** A change waiting for the member to open the link sent to the new address: send the link again, or drop it. */
export function PendingEmailChange({
  pending,
  onResent,
  onCancelled,
}: {
  pending: NonNullable<EmailChangeStatus['pending']>;
  onResent: () => void;
  /** Called once the change is gone (this block with it). */
  onCancelled: () => void;
}) {
  const styles = useStyles();
  const resend = useResendEmailChange();
  const cancel = useCancelEmailChange();
  const busy = resend.isPending || cancel.isPending;
  const failed = resend.error ?? cancel.error;
  // The answers' promises rather than mutate's callbacks: a cancelled change unmounts this block before they run.
  // Failures show below the buttons, from the mutations' state.
  const ignore = () => undefined;
  // While one is on its way both wait, still focusable: the pressed one keeps the focus.
  return (
    <div className={styles.pending}>
      <p className={styles.waiting}>{T.waiting(pending.newEmail)}</p>
      <p className={styles.detail}>{T.waitingDetail(EMAIL_CHANGE_LINK_HOURS)}</p>
      <div className={styles.actions}>
        <Button
          size="small"
          disabledFocusable={busy}
          onClick={() => {
            cancel.reset();
            void resend.mutateAsync().then(onResent, ignore);
          }}
        >
          {T.resend}
        </Button>
        <Button
          size="small"
          appearance="subtle"
          disabledFocusable={busy}
          onClick={() => {
            resend.reset();
            void cancel.mutateAsync().then(onCancelled, ignore);
          }}
        >
          {T.cancelChange}
        </Button>
      </div>
      {failed ? <ErrorBanner message={errorText(failed, LOGIN_DETAILS.emailChangeFailed)} error={failed} /> : null}
    </div>
  );
}
