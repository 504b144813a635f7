import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { CheckmarkCircle16Filled, Circle16Regular } from '@fluentui/react-icons';
import { PASSWORD_RULES } from '@ums/contracts/password-policy';
import { LOGIN_DETAILS as T } from '../messages.js';

const useStyles = makeStyles({
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalXXS },
  item: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-start', fontSize: tokens.fontSizeBase200 },
  met: { color: tokens.colorPaletteGreenForeground1 },
  unmet: { color: tokens.colorNeutralForeground3 },
});

/** The same rules the server enforces, ticked off while the member types. */
export function PasswordChecklist({ password }: { password: string }) {
  const styles = useStyles();
  return (
    <ul className={styles.list} aria-label={T.checklist}>
      {PASSWORD_RULES.map((rule) => {
        const met = rule.test(password);
        return (
          <li key={rule.id} className={mergeClasses(styles.item, met ? styles.met : styles.unmet)}>
            {met ? <CheckmarkCircle16Filled aria-hidden /> : <Circle16Regular aria-hidden />}
            <span>
              {rule.message}
              <span className="visually-hidden">{` (${met ? T.met : T.notMet})`}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
