import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { firstRenderChunks } from './first-render-chunks';
import { localeChunks } from './locale-plugin';
import { loginFiles } from './pwa-precache';

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
    plugins: [
      react(),
      localeChunks(),
      firstRenderChunks(),
      // The installable app: /manifest.webmanifest and the service worker /sw.js (src/sw/sw.ts),
      // which the signed-in app registers lazily (src/lib/service-worker.ts), never the login entry.
      VitePWA({
        strategies: 'injectManifest',
        srcDir: 'src/sw',
        filename: 'sw.ts',
        injectRegister: false,
        // The one manifest (public/manifest.json, also served as is at /manifest.json, which
        // index.html links): written again as /manifest.webmanifest.
        manifest: JSON.parse(
          fs.readFileSync(path.resolve(import.meta.dirname, 'public/manifest.json'), 'utf8'),
        ),
        // Only the sign-in screen's files are precached, not the manifest's icons.
        includeManifestIcons: false,
        injectManifest: {
          globPatterns: ['assets/*.{js,css}'],
          // Only the sign-in screen's files are precached; the rest are cached when first used.
          manifestTransforms: [
            async (entries) => {
              const keep = loginFiles(path.resolve(import.meta.dirname, 'dist'));
              return { manifest: entries.filter((entry) => keep.has(entry.url)), warnings: [] };
            },
          ],
        },
      }),
    ],
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
