import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Navigation24Regular, SignOut24Regular } from '@fluentui/react-icons';
import { lazy, Suspense, useState, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useClientConfig } from '../../lib/client-config-context.js';
import { HEADING_FONT } from '../../config/theme.js';
import { paths } from '../../config/paths.js';
import { markSignOutIntent } from '../../lib/sign-out-intent.js';
import { useMediaQuery } from '../../lib/use-media-query.js';
import { DRAWER_WIDTH, HEADER_HEIGHT, MOBILE_QUERY } from '../../config/layout.js';
import { SHELL_MESSAGES } from './messages.js';
import { useSignOut } from './sign-out-provider.js';

// Phones only: the overlay drawer brings Fluent's dialog machinery, which a desktop never needs to download.
const MobileMenu = lazy(() => import('./mobile-menu.js'));

export interface NavEntry {
  key: string;
  label: string;
  icon: ReactElement;
  href: string;
  active: boolean;
  /** In-page entries scroll instead of navigating. */
  onSelect?: (event: MouseEvent<HTMLAnchorElement>) => void;
}

const useStyles = makeStyles({
  header: {
    position: 'fixed',
    insetBlockStart: 0,
    insetInline: 0,
    height: `${HEADER_HEIGHT}px`,
    zIndex: 10,
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    paddingInline: tokens.spacingHorizontalM,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    boxShadow: tokens.shadow4,
  },
  headerButton: { color: tokens.colorNeutralForegroundOnBrand, ':hover': { color: tokens.colorNeutralForeground1 } },
  title: {
    flexGrow: 1,
    margin: 0,
    fontFamily: HEADING_FONT,
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    letterSpacing: '0.02em',
  },
  body: { display: 'flex', paddingBlockStart: `${HEADER_HEIGHT}px`, minHeight: '100vh', boxSizing: 'border-box' },
  // A plain side panel, not Fluent's InlineDrawer: its motion code and token table would weigh on every first load.
  inlineDrawer: {
    width: `${DRAWER_WIDTH}px`,
    position: 'sticky',
    insetBlockStart: `${HEADER_HEIGHT}px`,
    height: `calc(100vh - ${HEADER_HEIGHT}px)`,
    flexShrink: 0,
    boxSizing: 'border-box',
    overflowY: 'auto',
    backgroundColor: tokens.colorNeutralBackground1,
    borderInlineEndWidth: tokens.strokeWidthThin,
    borderInlineEndStyle: 'solid',
    borderInlineEndColor: tokens.colorNeutralStroke2,
    // Narrow side padding so the longest entry ("Promotional Products") fits the 240px drawer.
    paddingInline: tokens.spacingHorizontalS,
  },
  nav: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    paddingBlock: tokens.spacingVerticalS,
  },
  entry: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    paddingBlock: tokens.spacingVerticalS,
    paddingInline: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground2,
    textDecoration: 'none',
    border: 'none',
    background: 'none',
    font: 'inherit',
    cursor: 'pointer',
    textAlign: 'start',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover, color: tokens.colorNeutralForeground1 },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  active: {
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    fontWeight: tokens.fontWeightSemibold,
    ':hover': { backgroundColor: tokens.colorBrandBackground2Hover, color: tokens.colorBrandForeground2 },
  },
  divider: {
    borderTopWidth: '1px',
    borderTopStyle: 'solid',
    borderTopColor: tokens.colorNeutralStroke2,
    marginBlock: tokens.spacingVerticalS,
  },
  content: { flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' },
  // At least the window's height: the footer starts below the fold and stays there while a page's content loads and
  // grows, instead of standing at the window's foot and being pushed down (a layout shift, issue 38).
  main: {
    flexGrow: 1,
    minHeight: `calc(100vh - ${HEADER_HEIGHT}px)`,
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalXL,
    [`@media ${MOBILE_QUERY}`]: { padding: tokens.spacingHorizontalM },
  },
  footer: {
    display: 'flex',
    flexWrap: 'wrap',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalXL,
    borderTopWidth: '1px',
    borderTopStyle: 'solid',
    borderTopColor: tokens.colorNeutralStroke2,
    color: tokens.colorNeutralForeground3,
  },
  copyright: { fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200 },
  footerLinks: { display: 'flex', gap: tokens.spacingHorizontalL },
  footerLink: {
    color: tokens.colorBrandForegroundLink,
    textDecoration: 'none',
    ':hover': { textDecoration: 'underline', color: tokens.colorBrandForegroundLinkHover },
  },
});

function Navigation({
  label,
  entries,
  onChosen,
  onSignOut,
}: {
  label: string;
  entries: NavEntry[];
  onChosen: () => void;
  onSignOut: () => void;
}) {
  const styles = useStyles();
  return (
    <nav aria-label={label} className={styles.nav}>
      {entries.map((entry) => (
        <Link
          key={entry.key}
          to={entry.href}
          className={mergeClasses(styles.entry, entry.active && styles.active)}
          aria-current={entry.active ? 'page' : undefined}
          onClick={(event) => {
            entry.onSelect?.(event);
            onChosen();
          }}
        >
          {entry.icon}
          {entry.label}
        </Link>
      ))}
      <div className={styles.divider} role="presentation" />
      <button type="button" className={styles.entry} onClick={onSignOut}>
        <SignOut24Regular />
        {SHELL_MESSAGES.signOut}
      </button>
    </nav>
  );
}

export function Footer() {
  const styles = useStyles();
  const { company } = useClientConfig();
  return (
    <footer className={styles.footer}>
      <span className={styles.copyright}>{SHELL_MESSAGES.copyright(new Date().getFullYear(), company.name)}</span>
      <span className={styles.footerLinks}>
        <a className={styles.footerLink} href={company.termsUrl} target="_blank" rel="noopener noreferrer">
          {SHELL_MESSAGES.terms}
        </a>
        <a className={styles.footerLink} href={company.privacyUrl} target="_blank" rel="noopener noreferrer">
          {SHELL_MESSAGES.privacy}
        </a>
      </span>
    </footer>
  );
}

/** Header, collapsible navigation drawer (an overlay at 768px or less), content and footer. */
export function AppShell({
  title,
  navLabel,
  entries,
  children,
}: {
  title: string;
  navLabel: string;
  entries: NavEntry[];
  children: ReactNode;
}) {
  const styles = useStyles();
  const navigate = useNavigate();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [desktopOpen, setDesktopOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [mobileOpened, setMobileOpened] = useState(false);
  const signOut = useSignOut();
  const open = mobile ? mobileOpen : desktopOpen;
  const toggle = () => {
    if (!mobile) return setDesktopOpen(!desktopOpen);
    setMobileOpened(true);
    setMobileOpen(!mobileOpen);
  };
  const navigation = (
    <Navigation
      label={navLabel}
      entries={entries}
      onChosen={() => setMobileOpen(false)}
      onSignOut={() => {
        setMobileOpen(false);
        signOut();
      }}
    />
  );

  return (
    <>
      <header className={styles.header}>
        <Button
          appearance="transparent"
          className={styles.headerButton}
          icon={<Navigation24Regular />}
          aria-label={SHELL_MESSAGES.toggleMenu}
          aria-expanded={open}
          onClick={toggle}
        />
        <p className={styles.title}>{title}</p>
        <Button
          appearance="secondary"
          onClick={() => {
            markSignOutIntent();
            navigate(paths.logoutFromApp);
          }}
        >
          {SHELL_MESSAGES.logout}
        </Button>
      </header>
      <div className={styles.body}>
        {mobile
          ? // Fetched when the member first opens it, not with the page.
            mobileOpened && (
              <Suspense fallback={null}>
                <MobileMenu open={mobileOpen} onOpenChange={setMobileOpen}>
                  {navigation}
                </MobileMenu>
              </Suspense>
            )
          : desktopOpen && <div className={styles.inlineDrawer}>{navigation}</div>}
        <div className={styles.content}>
          <main className={styles.main}>{children}</main>
          <Footer />
        </div>
      </div>
    </>
  );
}
