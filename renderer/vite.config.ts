/**
 * Builds the renderer into renderer/dist, which the gateway serves at /app/ (main/http/server.ts).
 * Run from the repository root: `vite build --config renderer/vite.config.ts`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// eslint-disable-next-line no-restricted-syntax -- Vite loads the config through its default export.
export default defineConfig({
  root,
  base: '/app/',
  // No React plugin: Oxc's automatic JSX runtime is all the build needs (no Fast Refresh).
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('dist/', import.meta.url)),
    emptyOutDir: true,
    // Served under a strict CSP: keep every asset a file of its own, never an inline data: script.
    assetsInlineLimit: 0,
    target: 'es2022',
  },
});
