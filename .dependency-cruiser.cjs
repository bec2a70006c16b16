/**
 * The import rules of the repository, checked by `npm run check:layers` (dependency-cruiser).
 *
 * Server (`apps/server/src`), from bottom to top; a folder imports its own layer and the layers below,
 * never above:
 *   1. lib/                 generic infrastructure (errors, guards, URL policy, secrets, web delivery, metrics)
 *   2. db/                  schema, client, migrations, seed, and the row readers every layer above
 *                           shares (messages, tickets, connections, ticket visibility)
 *   3. jobs/, realtime/     the durable job queue and the socket layer
 *   4. channels/            WhatsApp drivers, the inbound pipeline, outbound delivery, media store
 *   5. automation/          queue chatbot, bots, flows, ratings, attendance hours, timers
 *   6. modules/<area>/      HTTP areas (routes, service, repository); may use other modules' services
 *   7. composition root     app.ts, main.ts, cluster.ts, media-migrate.ts, context.ts (types and interfaces only), config.ts
 * config.ts is importable from every layer; context.ts from channels/ upwards (an upper layer hands a
 * lower one what it needs through an interface declared there, wired in app.ts).
 *
 * Web (`apps/web/src`): lib/ (i18n included) and locales/ import no features/ nor app/;
 * features/<area> imports lib/, features/common and other features; app/ (shell, router) sits on top.
 * packages/shared imports nothing from apps/.
 *
 * No import circles anywhere, except among the Drizzle table files of apps/server/src/db/schema/, which
 * reference each other for relations.
 *
 * Imports that still break a layer rule are listed, as exact [importer, imported] pairs, in that
 * rule's `known` list until the code moves: any other such import fails.
 *
 * Type-only imports count like any other (tsPreCompilationDeps): a type reaching up a layer ties the
 * layers together as much as a value does. Tests (`*.test.ts(x)`) and the test support folders sit
 * outside the layers: they assemble whole applications to exercise a layer. They still count for circles.
 */

const SERVER = '^apps/server/src/';
const WEB = '^apps/web/src/';
const TESTS = '\\.test\\.tsx?$|^apps/server/src/test/|^apps/web/src/test/';
const ROOT_ABOVE_CONFIG = `${SERVER}app/|${SERVER}(app|main|cluster|media-migrate)\\.ts$`;

/**
 * A layer rule: nothing in `from` (tests aside) may import anything in `to`. `known` lists the
 * imports that still break it, as exact [importer, imported] paths: each is exempt alone, so any
 * other import from the same file is still refused. `fromNot` exempts whole files.
 */
function layer(name, comment, from, to, { known = [], fromNot = [] } = {}) {
  const exact = (path) => `^${path.replace(/[.]/g, '\\.')}$`;
  const importers = [...new Set(known.map(([importer]) => importer))];
  return [
    {
      name,
      comment,
      severity: 'error',
      from: { path: from, pathNot: [TESTS, ...fromNot, ...importers.map(exact)] },
      to: { path: to },
    },
    ...importers.map((importer) => ({
      name,
      comment,
      severity: 'error',
      from: { path: exact(importer) },
      to: {
        path: to,
        pathNot: known.filter(([source]) => source === importer).map(([, target]) => exact(target)),
      },
    })),
  ];
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import circles. Exempt: circles wholly within db/schema/, whose Drizzle table files reference each other for relations (a circle through any other module is reported from that module).',
      severity: 'error',
      from: { pathNot: `${SERVER}db/schema/` },
      to: { circular: true },
    },

    ...layer(
      'server-lib-no-domain',
      'lib/ is generic infrastructure: it imports no domain code and nothing of the composition root but config.',
      `${SERVER}lib/`,
      `${SERVER}(channels|automation|modules|realtime|jobs)/|${ROOT_ABOVE_CONFIG}|${SERVER}context\\.ts$`,
    ),
    ...layer(
      'server-db-above-lib',
      'db/ (schema, client, migrations, seed, row readers) imports lib/ at most.',
      `${SERVER}db/`,
      `${SERVER}(channels|automation|modules|realtime|jobs)/|${ROOT_ABOVE_CONFIG}|${SERVER}context\\.ts$`,
    ),
    ...layer(
      'server-jobs-realtime-above-db',
      'jobs/ and realtime/ import lib/ and db/ only.',
      `${SERVER}(jobs|realtime)/`,
      `${SERVER}(channels|automation|modules)/|${ROOT_ABOVE_CONFIG}`,
    ),
    ...layer(
      'server-channels-below-automation',
      'channels/ never imports automation/ nor modules/: what it needs from them reaches it through an interface in context.ts.',
      `${SERVER}channels/`,
      `${SERVER}(automation|modules)/|${ROOT_ABOVE_CONFIG}`,
    ),
    ...layer(
      'server-automation-below-modules',
      'automation/ never imports modules/: what it needs from a module reaches it through an interface in context.ts.',
      `${SERVER}automation/`,
      `${SERVER}modules/|${ROOT_ABOVE_CONFIG}`,
    ),
    ...layer(
      'server-modules-below-root',
      'modules/ never imports the composition root (app.ts, main.ts, cluster.ts).',
      `${SERVER}modules/`,
      ROOT_ABOVE_CONFIG,
    ),

    ...layer(
      'web-lib-no-features',
      'apps/web lib/ (i18n included) and locales/ import no features/ nor app/.',
      `${WEB}(lib|locales)/`,
      `${WEB}(features|app)/`,
    ),
    ...layer(
      'web-features-below-app',
      'apps/web features/ never imports app/.',
      `${WEB}features/`,
      `${WEB}app/`,
    ),
    ...layer('shared-no-apps', 'packages/shared imports nothing from apps/.', '^packages/shared/', '^apps/'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(apps/(server|web)/src|packages/shared/src)/',
    moduleSystems: ['es6'],
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json', '.d.ts'],
    },
    skipAnalysisNotInRules: true,
  },
};
