import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    // One migrated PGlite cluster per run, loaded by every test database on PGlite.
    globalSetup: ['src/test/pglite-snapshot.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
