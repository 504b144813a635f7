import { makeStyles, tokens } from '@fluentui/react-components';
import { Link } from 'react-router';
import { NOT_FOUND } from './messages.js';

const useStyles = makeStyles({
  box: { display: 'grid', justifyItems: 'center', gap: tokens.spacingVerticalM, padding: tokens.spacingVerticalXXXL },
  link: { color: tokens.colorBrandForegroundLink },
});

export function NotFound({ home = '/' }: { home?: string }) {
  const styles = useStyles();
  return (
    <section className={styles.box}>
      <h1>{NOT_FOUND.title}</h1>
      <span>{NOT_FOUND.detail}</span>
      <Link to={home} className={styles.link}>
        {NOT_FOUND.home}
      </Link>
    </section>
  );
}
