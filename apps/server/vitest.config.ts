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
    // Decision 0137: the files of a worker share its module graph (no re-import per file: the
    // server's modules took 280 s of import time per run when isolated). Tests keep no module state
    // of their own between files: each builds its app, database and fakes; fake timers are restored.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
