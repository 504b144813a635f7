import { makeStyles, tokens } from '@fluentui/react-components';
import { ClockRegular } from '@fluentui/react-icons';
import { COMING_SOON } from './messages.js';

const useStyles = makeStyles({
  box: {
    display: 'grid',
    justifyItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingVerticalXXXL,
    textAlign: 'center',
    color: tokens.colorNeutralForeground2,
  },
  icon: { fontSize: '40px', color: tokens.colorBrandForeground1 },
  text: { fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400 },
});

/** A page the SPEC announces but does not describe yet. */
export function ComingSoon({ title }: { title: string }) {
  const styles = useStyles();
  return (
    <section className={styles.box} aria-labelledby="coming-soon-title">
      <ClockRegular className={styles.icon} aria-hidden />
      <h1 id="coming-soon-title">{title}</h1>
      <span className={styles.text}>{COMING_SOON}</span>
    </section>
  );
}
