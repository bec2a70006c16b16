import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { localeChunks } from './locale-plugin';

/** Where the dev server proxies `/api` and `/socket.io` (the Zapdesk server, port 8080 by default). */
const apiTarget = process.env.ZAPDESK_API ?? 'http://localhost:8080';

/**
 * Web build. The `source` condition makes `@zapdesk/shared` resolve to its TypeScript sources, so the
 * shared package needs no build step for the web app (dev, build and vitest alike). `vite build` is
 * always a production build: NODE_ENV decides what the server seeds and logs, never which React the
 * browser receives (a shell with NODE_ENV=development would otherwise ship React's development build).
 */
export default defineConfig(({ command }) => {
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react(), localeChunks()],
    resolve: {
      conditions: ['source', 'module', 'browser', 'development|production'],
    },
    server: {
      port: 5173,
      proxy: {
        '/api': { target: apiTarget, changeOrigin: true },
        '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
      },
    },
    preview: {
      proxy: {
        '/api': { target: apiTarget, changeOrigin: true },
        '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
      },
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      chunkSizeWarningLimit: 1500,
      // dist/.vite/manifest.json: the chunk graph that scripts/check-budget.mjs sums per route.
      manifest: true,
    },
  };
});
