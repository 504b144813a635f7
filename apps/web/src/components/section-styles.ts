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
});
