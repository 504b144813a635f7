import {
  Button,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  makeStyles,
  OverlayDrawer,
  tokens,
} from '@fluentui/react-components';
import { Dismiss24Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { MOBILE_DRAWER_WIDTH } from '../../config/layout.js';
import { SHELL_MESSAGES } from './messages.js';

const useStyles = makeStyles({
  drawer: { width: `${MOBILE_DRAWER_WIDTH}px`, maxWidth: '100vw' },
  body: { paddingInline: tokens.spacingHorizontalS },
});

/** At 768px or less the navigation is an overlay drawer titled "Menu" with a close button. */
export default function MobileMenu({
  open,
  onOpenChange,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  const styles = useStyles();
  return (
    <OverlayDrawer
      open={open}
      onOpenChange={(_, data) => onOpenChange(data.open)}
      className={styles.drawer}
      aria-label={SHELL_MESSAGES.menu}
    >
      <DrawerHeader>
        <DrawerHeaderTitle
          action={
            <Button
              appearance="subtle"
              aria-label={SHELL_MESSAGES.closeMenu}
              icon={<Dismiss24Regular />}
              onClick={() => onOpenChange(false)}
            />
          }
        >
          {SHELL_MESSAGES.menu}
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody className={styles.body}>{children}</DrawerBody>
    </OverlayDrawer>
  );
}
