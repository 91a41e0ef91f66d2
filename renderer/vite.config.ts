/**
 * Builds the renderer into renderer/dist, which the gateway serves at /app/ (main/http/server.ts).
 * Run from the repository root: `vite build --config renderer/vite.config.ts`. Type-checked by
 * renderer/tsconfig.node.json (Node types), apart from the browser code in src/.
 */
import { defineConfig } from 'vite';

// eslint-disable-next-line no-restricted-syntax -- Vite loads the config through its default export.
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  // No React plugin: Oxc's automatic JSX runtime is all the build needs (no Fast Refresh).
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Served under a strict CSP: every asset stays a file of its own, none is inlined as data:.
    assetsInlineLimit: 0,
    target: 'es2022',
    rolldownOptions: {
      // React Server Components' "use client" markers in @tanstack/react-router mean nothing in a
      // client-only bundle; the bundler's note about each of them is noise.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
