import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { planFirstRender } from './chunk-plan';
import { localeChunks } from './locale-plugin';

/** The groups in the order they claim modules (PAGE: each `<name>-page` group). */
const PAGE = '<name>-page';
/** Each `shared-<names>` group: what some first pages share (chunk-plan.ts). */
const SHARED = 'shared-<names>';
const GROUP_ORDER = ['core', 'app', 'shell', SHARED, PAGE, 'realtime', 'mui-forms'];

/** Set in the first pass's process environment, so that its config does not start another. */
const FIRST_PASS = 'ZAPDESK_CHUNK_FIRST_PASS';

/**
 * Vite plugin: fewer, larger chunks for the first render of the signed-in app (docs/web.md, "Web
 * delivery"; decision 0129). Left alone, the bundler cuts the shell and the ticket list into some
 * eighty chunks, one per set of lazy pages sharing a module. Before the build, a first build in
 * memory (no minification, nothing written) gives the bundler's own chunks; the modules of the chunks
 * a first render loads are then grouped as planFirstRender says, and the rest is split as before.
 * Writes .vite/chunk-sources.json (source path → chunk file) for scripts/check-budget.mjs, since a
 * grouped root has no manifest key of its own.
 */
export function firstRenderChunks(): Plugin {
  const root = path.dirname(new URL(import.meta.url).pathname);
  const srcDir = path.join(root, 'src');
  let groups = new Map<string, string>();
  return {
    name: 'zapdesk-first-render-chunks',
    apply: (_config, env) => env.command === 'build' && !process.env[FIRST_PASS],
    async buildStart() {
      process.env[FIRST_PASS] = '1';
      try {
        const output = await build({
          root,
          configFile: false,
          logLevel: 'silent',
          plugins: [react(), localeChunks()],
          resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
          build: { write: false, minify: false, manifest: false },
        });
        const outputs = Array.isArray(output) ? output : [output];
        const chunks = outputs.flatMap((o) =>
          'output' in o ? o.output.filter((item) => item.type === 'chunk') : [],
        );
        groups = planFirstRender(srcDir, chunks);
      } finally {
        delete process.env[FIRST_PASS];
      }
    },
    outputOptions(options) {
      return {
        ...options,
        // One group per name, the earlier first: a group takes its modules' imports with it, so the
        // code the login entry needs is claimed before the full app's group can take it.
        codeSplitting: {
          groups: GROUP_ORDER.map((name, index) => ({
            name: (id: string) => {
              const group = groups.get(id);
              return group === name ||
                (name === PAGE && group?.endsWith('-page')) ||
                (name === SHARED && group?.startsWith('shared-'))
                ? group
                : null;
            },
            priority: GROUP_ORDER.length - index,
          })),
        },
      };
    },
    generateBundle(_options, bundle) {
      const sources: Record<string, string> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds) {
          if (!id.startsWith(`${srcDir}${path.sep}`)) continue;
          sources[`src/${path.relative(srcDir, id).split(path.sep).join('/')}`] = chunk.fileName;
        }
      }
      this.emitFile({ type: 'asset', fileName: '.vite/chunk-sources.json', source: JSON.stringify(sources) });
    },
  };
}
