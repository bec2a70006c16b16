import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where the dev server proxies `/api` and `/socket.io` (the Zapdesk server, port 8080 by default). */
const apiTarget = process.env.ZAPDESK_API ?? 'http://localhost:8080';

/**
 * Web build. The `source` condition makes `@zapdesk/shared` resolve to its TypeScript sources, so the
 * shared package needs no build step for the web app (dev, build and vitest alike).
 */
export default defineConfig({
  plugins: [react()],
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
  },
});
