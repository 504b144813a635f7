import { makeStyles, shorthands, tokens } from '@fluentui/react-components';

/** Card and label/value rows shared by the account sections. */
export const useSectionStyles = makeStyles({
  /** A plain panel rather than Fluent's Card: the account page's first load has a JavaScript budget. */
  card: {
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingHorizontalXL,
    gap: tokens.spacingVerticalM,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
  },
  outlined: {
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    ...shorthands.border('1px', 'solid', tokens.colorNeutralStroke1),
  },
  list: { margin: 0, display: 'grid', gap: 0 },
  row: {
    display: 'grid',
    gridTemplateColumns: '180px 1fr',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    minHeight: '44px',
    paddingBlock: tokens.spacingVerticalXS,
    borderBottomWidth: '1px',
    borderBottomStyle: 'solid',
    borderBottomColor: tokens.colorNeutralStroke2,
    '@media (max-width: 600px)': { gridTemplateColumns: '1fr' },
  },
  label: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightSemibold },
  value: {
    margin: 0,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
    overflowWrap: 'anywhere',
  },
  notProvided: { color: tokens.colorNeutralForeground3, fontStyle: 'italic' },
  /** The grey line under a section's title. */
  subtitle: {
    color: tokens.colorNeutralForeground3,
    marginBlock: `0 ${tokens.spacingVerticalS}`,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
  },
  /** Body copy, at the size Fluent's Text gives it. */
  message: { margin: 0, fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300 },
  /** Rows drawn before their values arrive keep the section's final height: nothing below it moves. */
  loading: { position: 'relative' },
  loadingLabel: {
    position: 'absolute',
    inset: 0,
    backgroundColor: tokens.colorNeutralBackground1,
    opacity: 0.85,
  },
  /** Where a value and its 32px edit button will be. */
  placeholder: {
    height: '32px',
    width: '60%',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  /** A short status beside a name ("This device", "Synced"). */
  badge: {
    marginInlineStart: tokens.spacingHorizontalS,
    paddingInline: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    fontSize: tokens.fontSizeBase200,
    fontWeight: tokens.fontWeightSemibold,
    whiteSpace: 'nowrap',
  },
});
