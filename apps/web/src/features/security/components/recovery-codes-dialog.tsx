import {
  Button,
  Checkbox,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogTitle,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';
import { useState } from 'react';

const useStyles = makeStyles({
  codes: {
    listStyle: 'none',
    margin: `${tokens.spacingVerticalM} 0`,
    padding: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
    gap: tokens.spacingVerticalXS,
    fontFamily: tokens.fontFamilyMonospace,
  },
  tools: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/** The .txt a member keeps: a heading line, then one code a line. */
export function recoveryCodesFile(codes: readonly string[]): string {
  return `${T.fileHeading}\n\n${codes.join('\n')}\n`;
}

function download(codes: readonly string[]) {
  const url = URL.createObjectURL(new Blob([recoveryCodesFile(codes)], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = T.fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The codes, ways to keep them, and a Done that waits for "I have saved these codes". */
export function RecoveryCodesBody({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const styles = useStyles();
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState(false);
  return (
    <DialogBody>
      <DialogTitle>{T.codesTitle}</DialogTitle>
      <DialogContent>
        <p>{T.codesIntro}</p>
        <ul className={styles.codes} aria-label={T.codesListLabel}>
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <div className={styles.tools}>
          <Button onClick={() => download(codes)}>{T.download}</Button>
          <Button
            onClick={() =>
              void navigator.clipboard?.writeText(codes.join('\n')).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {copied ? T.copied : T.copy}
          </Button>
        </div>
        <Checkbox checked={saved} onChange={(_, data) => setSaved(data.checked === true)} label={T.saved} />
      </DialogContent>
      <DialogActions>
        <Button appearance="primary" disabled={!saved} onClick={onDone}>
          {T.done}
        </Button>
      </DialogActions>
    </DialogBody>
  );
}
