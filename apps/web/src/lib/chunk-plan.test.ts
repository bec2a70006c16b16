import { describe, expect, it } from 'vitest';
import { type PassChunk, planFirstRender } from '../../chunk-plan';
import { passChunk as chunk, PASS_SRC as src } from '../test/pass-chunk';

/**
 * A small app as the bundler splits it: the entry; the login entry and the full app sharing React;
 * the layout; the tickets page and the dashboard sharing a button; the tickets page and the contacts
 * page sharing an avatar; a lazy dialog and a page nobody opens first.
 */
const chunks: PassChunk[] = [
  chunk('index.js', 'main.tsx', [], ['main', 'storage']),
  chunk('react.js', null, [], ['react', 'react-dom']),
  chunk('login-entry.js', 'app/login-entry.tsx', ['react.js', 'login-page.js'], ['login-entry']),
  chunk('login-page.js', 'features/auth/login-page.tsx', ['react.js'], ['login-page']),
  chunk('signup-page.js', 'features/auth/signup-page.tsx', ['react.js', 'paper.js'], ['signup-page']),
  chunk('app.js', 'app/app.tsx', ['react.js', 'router.js'], ['app']),
  chunk('router.js', null, [], ['router']),
  chunk('providers.js', 'app/app-providers.tsx', ['react.js', 'theme.js'], ['providers']),
  chunk('theme.js', null, [], ['theme']),
  chunk('paper.js', null, [], ['paper']),
  chunk('layout.js', 'app/layout/app-layout.tsx', ['react.js', 'paper.js', 'menu.js'], ['layout']),
  chunk('menu.js', null, [], ['menu']),
  chunk(
    'tickets-page.js',
    'features/tickets/tickets-page.tsx',
    ['button.js', 'avatar.js', 'list.js', 'tickets-cache.js', 'icons.js'],
    ['tickets-page'],
  ),
  chunk('list.js', null, [], ['virtual-list']),
  chunk('button.js', null, [], ['button']),
  chunk('avatar.js', null, [], ['avatar']),
  chunk(
    'dashboard-page.js',
    'features/dashboard/dashboard-page.tsx',
    ['button.js', 'icons.js'],
    ['dashboard-page'],
  ),
  chunk('kanban-page.js', 'features/kanban/kanban-page.tsx', ['icons.js'], ['kanban-page']),
  chunk('icons.js', null, [], ['icons']),
  chunk(
    'contacts-page.js',
    'features/contacts/contacts-page.tsx',
    ['avatar.js', 'table.js'],
    ['contacts-page'],
  ),
  chunk('table.js', null, [], ['table']),
  chunk('dialog.js', 'features/tickets/ticket-dialog.tsx', ['button.js', 'modal.js'], ['dialog']),
  chunk('modal.js', null, [], ['modal']),
  chunk(
    'realtime.js',
    'app/use-realtime.ts',
    ['socket.js', 'tickets-cache.js', 'browser.js'],
    ['use-realtime'],
  ),
  chunk('settings.js', 'app/layout/top-bar-settings.tsx', ['browser.js'], ['top-bar-settings']),
  chunk('browser.js', null, [], ['browser']),
  chunk('socket.js', null, [], ['socket.io-client']),
  chunk('tickets-cache.js', null, [], ['tickets-cache']),
];

describe('first render chunks (chunk-plan.ts)', () => {
  const groups = planFirstRender(src, chunks);

  it('the entry keeps its own modules', () => {
    expect(groups.get('main')).toBeUndefined();
    expect(groups.get('storage')).toBeUndefined();
  });

  it('what the login entry shares with the full app is one chunk that holds nothing else', () => {
    for (const id of ['react', 'react-dom']) expect(groups.get(id)).toBe('core');
    for (const id of ['app', 'router', 'providers', 'theme', 'layout'])
      expect(groups.get(id)).not.toBe('core');
    // The login entry and form stay chunks of their own: the full app never loads them.
    expect(groups.get('login-entry')).toBeUndefined();
    expect(groups.get('login-page')).toBeUndefined();
  });

  it('the full app, its providers and what a public page shares with the shell form the app chunk', () => {
    for (const id of ['app', 'router', 'providers', 'theme', 'paper']) expect(groups.get(id)).toBe('app');
  });

  it('the layout and what every first page loads form the shell', () => {
    for (const id of ['layout', 'menu', 'icons']) expect(groups.get(id)).toBe('shell');
  });

  it('what some first pages share, with each other or other pages, is a chunk of those pages only', () => {
    // The button of /tickets and the dashboard: never fetched by kanban.
    expect(groups.get('button')).toBe('shared-tickets-dashboard');
    // The avatar /tickets shares with the contacts page: never fetched by the dashboard or kanban.
    expect(groups.get('avatar')).toBe('shared-tickets');
  });

  it('the realtime connection is one lazy chunk; what a first page shares with it joins the shell', () => {
    expect(groups.get('use-realtime')).toBe('realtime');
    expect(groups.get('socket.io-client')).toBe('realtime');
    expect(groups.get('tickets-cache')).toBe('shell');
  });

  it("what the shell's lazy settings buttons share with the realtime connection joins the shell", () => {
    expect(groups.get('browser')).toBe('shell');
    expect(groups.get('top-bar-settings')).toBeUndefined();
  });

  it("a first page's own modules form its chunk", () => {
    expect(groups.get('tickets-page')).toBe('tickets-page');
    expect(groups.get('virtual-list')).toBe('tickets-page');
    expect(groups.get('dashboard-page')).toBe('dashboard-page');
  });

  it('lazy dialogs, other pages and their own libraries are left to the bundler', () => {
    for (const id of ['dialog', 'modal', 'contacts-page', 'table', 'signup-page']) {
      expect(groups.get(id)).toBeUndefined();
    }
  });
});
