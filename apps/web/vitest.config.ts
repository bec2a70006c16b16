import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

/** Vitest project 'web': component and unit tests in jsdom (`npx vitest run --project web`). */
export default defineProject({
  plugins: [react()],
  resolve: {
    conditions: ['source', 'module', 'browser', 'development|production'],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
  },
});
