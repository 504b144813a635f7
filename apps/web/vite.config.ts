import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': 'http://localhost:8080', '/oidc': 'http://localhost:8080' } },
  // The manifest lets the budget check and the benchmark see which files each screen loads.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
});
