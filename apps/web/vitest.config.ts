import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { localeChunks } from './locale-plugin';

/** Vitest project 'web': component and unit tests in jsdom (`npx vitest run --project web`). */
export default defineProject({
  plugins: [react(), localeChunks()],
  resolve: {
    conditions: ['source', 'module', 'browser', 'development|production'],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // jsdom renders of MUI forms take 1–3 s on a busy 2-core machine; 5 s (the default) fails them
    // for the machine's load, not for the code.
    testTimeout: 20_000,
  },
});
