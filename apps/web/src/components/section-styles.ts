import { makeStyles, tokens } from '@fluentui/react-components';

/** Card and label/value rows shared by the account sections. */
export const useSectionStyles = makeStyles({
  card: { padding: tokens.spacingHorizontalXL, gap: tokens.spacingVerticalM },
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
