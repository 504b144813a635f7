import { makeStaticStyles } from '@fluentui/react-components';
import { HEADING_FONT, TEXT_FONT } from '../config/theme.js';

/** Page-wide defaults: Figtree for text, Antonio for headings. */
export const useGlobalStyles = makeStaticStyles({
  body: { margin: 0, fontFamily: TEXT_FONT },
  'h1, h2, h3': { fontFamily: HEADING_FONT, fontWeight: 600, letterSpacing: '0.01em', marginBlock: '0 0.5em' },
  h1: { fontSize: '2rem' },
  h2: { fontSize: '1.5rem' },
  h3: { fontSize: '1.2rem' },
  html: { scrollPaddingTop: '80px' },
  // Plain links take the brand's link colour (Fluent's tokens are CSS variables on the provider).
  a: { color: 'var(--colorBrandForegroundLink)' },
  'a:hover': { color: 'var(--colorBrandForegroundLinkHover)' },
  '.visually-hidden': {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
});
