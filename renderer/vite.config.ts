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
    // Read by tests/unit/renderer-chunks.test.ts: which chunks the app loads up front.
    manifest: true,
    rolldownOptions: {
      output: {
        // Screens are split by the router's lazy routes. The libraries get named chunks of their
        // own, apart from the app's code (which changes more often), and a test can name them.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /[\\/]node_modules[\\/]@tanstack[\\/](react-router|router-core|history|store|react-store)[\\/]/ },
            { name: 'forms', test: /[\\/]node_modules[\\/]react-hook-form[\\/]/ },
            { name: 'tables', test: /[\\/]node_modules[\\/]@tanstack[\\/](react-table|table-core|react-virtual|virtual-core)[\\/]/ },
            { name: 'uplot', test: /[\\/]node_modules[\\/]uplot[\\/]/ },
            { name: 'intl', test: /[\\/]node_modules[\\/](react-intl|@formatjs|intl-messageformat)[\\/]/ },
            // The staff screens' words (D21): one chunk per language (its areas' files), each well
            // under the 500 kB warning as the catalogues grow.
            { name: 'messages-en', test: /[\\/]contract[\\/]i18n[\\/]messages[\\/][^\\/]+[\\/]en\.ts$/ },
            { name: 'messages-de', test: /[\\/]contract[\\/]i18n[\\/]messages[\\/][^\\/]+[\\/]de\.ts$/ },
            { name: 'messages-pt', test: /[\\/]contract[\\/]i18n[\\/]messages[\\/][^\\/]+[\\/]pt\.ts$/ },
            { name: 'messages-hr', test: /[\\/]contract[\\/]i18n[\\/]messages[\\/][^\\/]+[\\/]hr\.ts$/ },
          ],
        },
      },
      // React Server Components' "use client" markers in @tanstack/react-router mean nothing in a
      // client-only bundle; the bundler's note about each of them is noise.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
