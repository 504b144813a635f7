// Self-hosted fonts (bundled by Vite, never fetched from a font CDN) and the page-wide styles.
import '@fontsource/figtree/latin-400.css';
import '@fontsource/figtree/latin-600.css';
import '@fontsource/figtree/latin-700.css';
import '@fontsource/antonio/latin-600.css';
import '@fontsource/antonio/latin-700.css';
import './global.css';
