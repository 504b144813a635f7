import { makeStyles, tokens } from '@fluentui/react-components';

/** Layout shared by the admin screens: page header, card grid, cards. */
export const useAdminStyles = makeStyles({
  page: { display: 'grid', gap: tokens.spacingVerticalL, maxWidth: '1200px' },
  header: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
  },
  title: { margin: 0 },
  grid: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  card: { height: '100%', gap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalL },
  /** The title link covers the card, so the whole card opens it while staying one link for assistive tech. */
  cardLink: {
    color: 'inherit',
    textDecoration: 'none',
    '::after': { content: '""', position: 'absolute', inset: 0 },
    ':hover': { textDecoration: 'underline' },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  cardTitle: { margin: 0, fontSize: tokens.fontSizeBase500 },
  muted: { color: tokens.colorNeutralForeground3, margin: 0 },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'auto 1fr',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
    margin: 0,
  },
  term: { color: tokens.colorNeutralForeground3 },
  definition: { margin: 0 },
  list: { margin: 0, paddingInlineStart: tokens.spacingHorizontalL },
  empty: {
    display: 'grid',
    justifyItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingVerticalXXL,
    textAlign: 'center',
    color: tokens.colorNeutralForeground2,
  },
});
