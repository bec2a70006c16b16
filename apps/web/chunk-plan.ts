import path from 'node:path';

/** A chunk of the first pass (the fields read here). */
export interface PassChunk {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  /** Chunks it imports statically (file names). */
  imports: string[];
  moduleIds: string[];
}

/** Roots, relative to apps/web/src. */
const LOGIN_ENTRY = 'app/login-entry.tsx';
/** The full app (router, session, toasts) and the query client and theme: before every page but /login. */
const APP_ROOTS = ['app/app.tsx', 'app/app-providers.tsx'];
/** The signed-in layout, before every private page. */
const LAYOUT = 'app/layout/app-layout.tsx';
/** The realtime connection (socket.io and the caches' handlers): loaded once the first page is usable. */
const REALTIME = 'app/use-realtime.ts';
/**
 * Lazy pieces a first page fetches right after it renders, not on a click (MUI's show-all switch):
 * what they share with the public forms joins the `app` chunk, so that they never fetch `mui-forms`.
 */
const AFTER_FIRST_RENDER = ['features/tickets/show-all-switch-mui.tsx'];
/**
 * The shell's lazy pieces drawn at first render (the top bar's settings buttons, the phone's 'more'
 * menu): what they share with the realtime connection joins the shell, so that drawing them never
 * fetches the realtime chunk, which waits until the first page is usable (lib/first-page.ts).
 */
const SHELL_LAZY = ['app/layout/top-bar-settings.tsx', 'app/layout/top-bar-overflow.tsx'];
/** Pages outside the layout. */
const PUBLIC_PAGE = /^features\/auth\//;
/** MUI's own modules (the only ones the `mui-forms` group takes). */
const MUI_MODULE = /[\\/]node_modules[\\/]@mui[\\/]/;
/** The pages an agent opens first (docs/web.md, "Web delivery"). */
const FIRST_PAGES = [
  'features/tickets/tickets-page.tsx',
  'features/dashboard/dashboard-page.tsx',
  'features/kanban/kanban-page.tsx',
];

/**
 * The group of each module of a first render, from the chunks of a first build with the bundler's
 * own splitting (`chunks`; modules as that build kept them, after tree-shaking): `core` (what the
 * login entry shares with the full app: React, React DOM, i18next, the session), `app` (the rest of
 * the full app and its providers, and what the public pages share with it or the shell), `shell` (the
 * rest of the layout, what every first page loads, and what a first page shares with the realtime
 * connection or with the shell's lazy pieces drawn at first render), `shared-<names>` (what some
 * first pages, not all, share with each other or with other pages: `shared-dashboard-kanban` is
 * loaded by the dashboard and kanban, never by /tickets), `realtime` (the rest of the realtime
 * connection, a lazy chunk every signed-in page loads once it is usable: one file instead of some
 * fifteen), `<name>-page`
 * (what only that first page loads at first render), and `mui-forms` (the MUI modules of the public
 * pages' forms that no first render loads — TextField, its inputs, select, menu and modal — one
 * chunk for every page with a form instead of a dozen small ones; decision 0132). A chunk the page's
 * entry loads statically keeps its modules out of the groups, as does every chunk no root above loads
 * at first render (other pages' own code, dialogs, menus, locales): the bundler splits those as before.
 * `srcDir` is apps/web/src (absolute). Returns module id → group name.
 */
export function planFirstRender(srcDir: string, chunks: PassChunk[]): Map<string, string> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const rootOf = (chunk: PassChunk) =>
    chunk.facadeModuleId?.startsWith(`${srcDir}${path.sep}`)
      ? path.relative(srcDir, chunk.facadeModuleId).split(path.sep).join('/')
      : null;
  /** The chunk files a root's chunk loads statically, itself included. */
  const closure = (roots: string[]) =>
    from(chunks.filter((chunk) => roots.includes(rootOf(chunk) as string)));
  const from = (starts: PassChunk[]) => {
    const seen = new Set<string>();
    const stack = starts.map((chunk) => chunk.fileName);
    while (stack.length) {
      const file = stack.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      stack.push(...(byFile.get(file)?.imports ?? []));
    }
    return seen;
  };
  const entry = from(chunks.filter((chunk) => chunk.isEntry));
  const login = closure([LOGIN_ENTRY]);
  const app = closure(APP_ROOTS);
  const layout = closure([LAYOUT]);
  const pages = chunks.map(rootOf).filter((root): root is string => !!root && /-page\.tsx$/.test(root));
  const publicPages = closure(pages.filter((page) => PUBLIC_PAGE.test(page)));
  /** How many pages load each chunk at first render. */
  const pageCount = new Map<string, number>();
  for (const page of pages)
    for (const file of closure([page])) pageCount.set(file, (pageCount.get(file) ?? 0) + 1);
  const realtime = closure([REALTIME]);
  /** The first pages (short names, in FIRST_PAGES order) whose render loads each chunk. */
  const firstPagesOf = new Map<string, string[]>();
  for (const page of FIRST_PAGES) {
    for (const file of closure([page])) {
      firstPagesOf.set(file, [...(firstPagesOf.get(file) ?? []), path.basename(page, '-page.tsx')]);
    }
  }
  const groupOfChunk = new Map<string, string>();
  /** `page`: the first page whose render loads `file`, 'realtime', or null for the app and layout. */
  const place = (file: string, page: string | null) => {
    if (entry.has(file) || groupOfChunk.has(file)) return;
    const firsts = firstPagesOf.get(file) ?? [];
    if (login.has(file)) groupOfChunk.set(file, 'core');
    else if (app.has(file) || publicPages.has(file)) groupOfChunk.set(file, 'app');
    else if (page === 'realtime') groupOfChunk.set(file, 'realtime');
    else if (page === null || realtime.has(file) || firsts.length === FIRST_PAGES.length) {
      groupOfChunk.set(file, 'shell');
    } else if ((pageCount.get(file) ?? 0) > 1) groupOfChunk.set(file, `shared-${firsts.join('-')}`);
    else groupOfChunk.set(file, path.basename(page, '.tsx'));
  };
  for (const file of app) place(file, null);
  for (const file of layout) place(file, null);
  for (const page of FIRST_PAGES) for (const file of closure([page])) place(file, page);
  for (const file of closure(SHELL_LAZY)) {
    const chunk = byFile.get(file);
    if (chunk && realtime.has(file) && !rootOf(chunk)) place(file, null);
  }
  for (const file of realtime) place(file, 'realtime');
  const afterFirstRender = closure(AFTER_FIRST_RENDER);
  for (const file of afterFirstRender) {
    const chunk = byFile.get(file);
    if (chunk && publicPages.has(file) && !rootOf(chunk)) place(file, null);
  }
  const groups = new Map<string, string>();
  for (const [file, group] of groupOfChunk) {
    for (const id of byFile.get(file)?.moduleIds ?? []) groups.set(id, group);
  }
  for (const file of publicPages) {
    const chunk = byFile.get(file);
    if (!chunk || entry.has(file) || login.has(file) || groupOfChunk.has(file) || rootOf(chunk)) continue;
    for (const id of chunk.moduleIds) if (MUI_MODULE.test(id)) groups.set(id, 'mui-forms');
  }
  return groups;
}
