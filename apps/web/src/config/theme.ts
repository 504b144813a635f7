import type { BrandVariants } from '@fluentui/react-components';

/** The brand ramp: browns from dark (10) to light (160); 80 is the primary colour of the light theme. */
export const brown: BrandVariants = {
  10: '#120a06',
  20: '#24150d',
  30: '#361f13',
  40: '#482a19',
  50: '#5a351f',
  60: '#6b3f25',
  70: '#7a4a2b',
  80: '#8b5632',
  90: '#9a6440',
  100: '#a8734f',
  110: '#b5835f',
  120: '#c29370',
  130: '#cea382',
  140: '#d9b495',
  150: '#e4c6a9',
  160: '#eed8bf',
};

export const TEXT_FONT = "Figtree, 'Figtree Fallback', 'Segoe UI', system-ui, -apple-system, sans-serif";
export const HEADING_FONT = "Antonio, 'Antonio Fallback', 'Arial Narrow', Figtree, sans-serif";

/**
 * The light theme's variables (Fluent's tokens over the brown ramp) are computed when the app is built and written
 * into the page as CSS (see vite.config.ts), so the browser neither downloads the theme code nor builds it.
 */
export const THEME_FONTS = { fontFamilyBase: TEXT_FONT, umsFontHeading: HEADING_FONT };
