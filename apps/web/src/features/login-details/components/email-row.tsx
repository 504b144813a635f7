import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { EditRegular } from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useAuth } from 'react-oidc-context';
import { useSectionStyles } from '../../../components/section-styles.js';
import { Spinner } from '../../../components/spinner.js';
import { useClientConfig } from '../../../lib/client-config-context.js';
import { useLazyDialog } from '../../../lib/use-lazy-dialog.js';
import { useEmailChangeStatus } from '../api/email-change-status.js';
import { LOGIN_DETAILS } from '../messages.js';
import type { EmailChangeNotice } from './email-status.js';

// The account page's first load carries only this row and its status query (a JavaScript budget): the dialog, the
// badge, the waiting change, the notices and another provider's link are fetched when shown, and so are the email
// change's texts (every one of them, the provider's pages' and the mails' too, comes with any one).
const EmailChangeDialog = lazy(() =>
  import('./email-change-dialog.js').then((m) => ({ default: m.EmailChangeDialog })),
);
const UnverifiedBadge = lazy(() => import('./email-status.js').then((m) => ({ default: m.UnverifiedBadge })));
const PendingEmailChange = lazy(() => import('./email-status.js').then((m) => ({ default: m.PendingEmailChange })));
const EmailChangeNoticeBanner = lazy(() =>
  import('./email-status.js').then((m) => ({ default: m.EmailChangeNoticeBanner })),
);
const ChangeEmailLink = lazy(() => import('./change-email-link.js').then((m) => ({ default: m.ChangeEmailLink })));

const useStyles = makeStyles({
  value: { flexWrap: 'wrap' },
  address: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  wide: { flexBasis: '100%' },
});

/**
 * The account's email address, and how to change it: in the app (the embedded provider), on another provider's own
 * page, or not at all (`clientConfig.emailChange`).
 */
export function EmailRow() {
  const rows = useSectionStyles();
  const styles = useStyles();
  const { emailChange } = useClientConfig();
  const inApp = emailChange === 'in-app';
  const auth = useAuth();
  const tokenEmail = typeof auth.user?.profile.email === 'string' ? auth.user.profile.email : '';
  const status = useEmailChangeStatus(inApp).data ?? null;
  const changing = useLazyDialog();
  const editButton = useRef<HTMLButtonElement>(null);
  const [notice, setNotice] = useState<EmailChangeNotice | null>(null);

  // A change confirmed elsewhere (the link opened in another tab or browser): said once the status shows another
  // address than it did. The tokens carry the old address until they are renewed (the API refuses them once the
  // change is made, and the API client renews on that; if they still say the old one here, renew once more).
  const shown = useRef<string | null>(null);
  const statusEmail = status?.email ?? null;
  useEffect(() => {
    if (!statusEmail) return;
    const before = shown.current;
    shown.current = statusEmail;
    if (before !== null && before !== statusEmail) setNotice({ kind: 'changed', email: statusEmail });
  }, [statusEmail]);
  const stale = statusEmail && tokenEmail && statusEmail !== tokenEmail ? statusEmail : null;
  const renewedFor = useRef<string | null>(null);
  const { signinSilent } = auth;
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!stale || renewedFor.current === stale) return;
    renewedFor.current = stale;
    void signinSilent()
      .catch(() => null)
      // Everything else that shows the address (Personal Information's email) reads it again.
      .then(() => queryClient.invalidateQueries());
  }, [stale, signinSilent, queryClient]);

  const backToEdit = () => editButton.current?.focus();

  return (
    <div className={rows.row}>
      <dt className={rows.label}>{LOGIN_DETAILS.email}</dt>
      <dd className={mergeClasses(rows.value, styles.value)}>
        <span className={styles.address}>
          <span>{status?.email ?? tokenEmail}</span>
          {status && !status.emailVerified ? (
            <Suspense fallback={null}>
              <UnverifiedBadge />
            </Suspense>
          ) : null}
        </span>
        {inApp ? (
          <Button
            ref={editButton}
            appearance="subtle"
            icon={<EditRegular />}
            aria-label={LOGIN_DETAILS.editEmail}
            aria-haspopup="dialog"
            onClick={() => {
              setNotice(null);
              changing.show();
            }}
          />
        ) : emailChange ? (
          <Suspense fallback={null}>
            <ChangeEmailLink href={emailChange} />
          </Suspense>
        ) : null}
        {status?.pending ? (
          <Suspense fallback={null}>
            <PendingEmailChange
              pending={status.pending}
              onResent={() => setNotice({ kind: 'resent' })}
              onCancelled={() => {
                setNotice({ kind: 'cancelled' });
                backToEdit();
              }}
            />
          </Suspense>
        ) : null}
        {notice ? (
          <div className={styles.wide}>
            <Suspense fallback={null}>
              <EmailChangeNoticeBanner notice={notice} />
            </Suspense>
          </div>
        ) : null}
        {changing.mounted ? (
          <Suspense fallback={<Spinner size="tiny" />}>
            <EmailChangeDialog
              open={changing.open}
              onClose={() => {
                changing.hide();
                backToEdit();
              }}
            />
          </Suspense>
        ) : null}
      </dd>
    </div>
  );
}
