import { makeStyles } from '@fluentui/react-components';
import type { AuditEntity } from '@ums/contracts/audit';
import { Link } from 'react-router';
import { adminPaths } from '../admin-paths.js';

const useStyles = makeStyles({
  // Above a card whose title link covers it, so this link opens the history, not the card.
  link: { position: 'relative', zIndex: 1 },
});

export const HISTORY = { link: 'History', label: (name: string) => `History of ${name}` } as const;

/** The Activity screen's address for one entity's history. */
export const historyHref = (entity: AuditEntity, id: number | string) =>
  `${adminPaths.activity}?entity=${entity}&entityId=${encodeURIComponent(String(id))}`;

/** The "History" link of a membership or discount package card: that entity's entries on the Activity screen. */
export function HistoryLink({ entity, id, name }: { entity: AuditEntity; id: number; name: string }) {
  const styles = useStyles();
  return (
    <Link className={styles.link} to={historyHref(entity, id)} aria-label={HISTORY.label(name)}>
      {HISTORY.link}
    </Link>
  );
}
