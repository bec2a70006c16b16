import { defineConfig } from 'vitest/config';

/** One Vitest run over the whole workspace: each package is a project. */
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web'],
  },
});
