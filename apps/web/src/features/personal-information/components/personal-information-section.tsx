import { Button } from '@fluentui/react-components';
import { Spinner } from '../../../components/spinner.js';
import { EditRegular } from '@fluentui/react-icons';
import { lazy, Suspense } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { useSectionStyles } from '../../../components/section-styles.js';
import { errorText } from '../../../lib/error-text.js';
import { useLazyDialog } from '../../../lib/use-lazy-dialog.js';
import { useUserDetails } from '../api/user-details.js';
import { displayRows } from '../display-rows.js';
import { PERSONAL_INFORMATION as T } from '../messages.js';
// The dialog (with its calendar) is fetched on the first edit, keeping it out of the account page's first load.
const EditPersonalInformationDialog = lazy(() =>
  import('./edit-personal-information-dialog.js').then((m) => ({ default: m.EditPersonalInformationDialog })),
);
// "Download my data" and "Close my account" come after the details have painted: not in the first load either.
const YourData = lazy(() => import('./your-data.js').then((m) => ({ default: m.YourData })));

export function PersonalInformationSection() {
  const styles = useSectionStyles();
  const details = useUserDetails();
  const editing = useLazyDialog();

  return (
    <div className={styles.card}>
      {details.isPending ? (
        <div className={styles.loading}>
          <dl className={styles.list} aria-hidden>
            {displayRows(null).map((row) => (
              <div key={row.label} className={styles.row}>
                <dt className={styles.label}>{row.label}</dt>
                <dd className={styles.value}>
                  <span className={styles.placeholder} />
                </dd>
              </div>
            ))}
          </dl>
          <Spinner className={styles.loadingLabel} label={T.loading} />
        </div>
      ) : details.isError ? (
        <ErrorBanner message={errorText(details.error, T.loadFailed)} error={details.error} />
      ) : (
        <dl className={styles.list}>
          {displayRows(details.data).map((row) => (
            <div key={row.label} className={styles.row}>
              <dt className={styles.label}>{row.label}</dt>
              <dd className={styles.value}>
                <span className={row.value === T.notProvided ? styles.notProvided : undefined}>{row.value}</span>
                <Button
                  appearance="subtle"
                  icon={<EditRegular />}
                  aria-label={T.edit(row.label)}
                  onClick={editing.show}
                />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {details.isError ? null : (
        // Its room is kept from the first paint: the sections below do not move when the details arrive.
        <Suspense fallback={<div style={{ minHeight: 36 }} />}>
          {details.isSuccess ? <YourData /> : <div style={{ minHeight: 36 }} />}
        </Suspense>
      )}
      {editing.mounted ? (
        <Suspense fallback={<Spinner size="tiny" label={T.loading} />}>
          <EditPersonalInformationDialog details={details.data ?? null} open={editing.open} onClose={editing.hide} />
        </Suspense>
      ) : null}
    </div>
  );
}
