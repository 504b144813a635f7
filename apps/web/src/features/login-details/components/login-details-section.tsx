import { Button } from '@fluentui/react-components';
import { Spinner } from '../../../components/spinner.js';
import { EditRegular } from '@fluentui/react-icons';
import { lazy, Suspense, useRef, useState } from 'react';
import { useSectionStyles } from '../../../components/section-styles.js';
import { LOGIN_DETAILS as T } from '../messages.js';
import { EmailRow } from './email-row.js';

// The form (inputs, fields, the password checklist) is fetched on first use, keeping it out of the first load.
const PasswordChangeForm = lazy(() =>
  import('./password-change-form.js').then((m) => ({ default: m.PasswordChangeForm })),
);

export function LoginDetailsSection() {
  const rows = useSectionStyles();
  const [open, setOpen] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);

  const close = () => {
    setOpen(false);
    editButton.current?.focus();
  };

  return (
    <div className={rows.card}>
      <dl className={rows.list}>
        <EmailRow />
        <div className={rows.row}>
          <dt className={rows.label}>{T.password}</dt>
          <dd className={rows.value}>
            <span>
              <span aria-hidden>{T.maskedPassword}</span>
              <span className="visually-hidden">{T.hiddenPassword}</span>
            </span>
            <Button
              ref={editButton}
              appearance="subtle"
              icon={<EditRegular />}
              aria-label={T.editPassword}
              aria-expanded={open}
              onClick={() => (open ? close() : setOpen(true))}
            />
          </dd>
        </div>
      </dl>
      {open ? (
        <Suspense fallback={<Spinner size="tiny" />}>
          <PasswordChangeForm onClose={close} />
        </Suspense>
      ) : null}
    </div>
  );
}
