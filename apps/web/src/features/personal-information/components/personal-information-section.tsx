import { Button, Card, Spinner } from '@fluentui/react-components';
import { EditRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { useSectionStyles } from '../../../components/section-styles.js';
import { errorText } from '../../../lib/error-text.js';
import { useUserDetails } from '../api/user-details.js';
import { displayRows } from '../form-state.js';
import { PERSONAL_INFORMATION as T } from '../messages.js';
import { EditPersonalInformationDialog } from './edit-personal-information-dialog.js';

export function PersonalInformationSection() {
  const styles = useSectionStyles();
  const details = useUserDetails();
  const [editing, setEditing] = useState(false);

  return (
    <Card className={styles.card}>
      {details.isPending ? (
        <Spinner label={T.loading} />
      ) : details.isError ? (
        <ErrorBanner message={errorText(details.error, T.loadFailed)} />
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
                  onClick={() => setEditing(true)}
                />
              </dd>
            </div>
          ))}
        </dl>
      )}
      <EditPersonalInformationDialog details={details.data ?? null} open={editing} onClose={() => setEditing(false)} />
    </Card>
  );
}
