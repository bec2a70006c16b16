import { describe, expect, it } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { buildMenu, menuPaths } from './menu-items';

const ALWAYS = ['/tickets', '/quick-messages', '/todolist', '/contacts', '/tags', '/helps'];
const ADMIN_ONLY = [
  '/',
  '/phrase-lists',
  '/flowbuilders',
  '/connections',
  '/files',
  '/queues',
  '/users',
  '/financeiro',
  '/planos',
  '/settings',
];
const CAMPAIGNS = ['/campaigns', '/contact-lists', '/campaigns-config'];

describe('side menu conditions', () => {
  it('gives an agent without plan features only the unconditional links', () => {
    const paths = menuPaths(buildMenu(createSessionUser({ profile: 'user' }), { cshow: false }));
    expect(paths.sort()).toEqual([...ALWAYS].sort());
  });

  it('adds the dashboard and the flows submenu for an admin', () => {
    const paths = menuPaths(buildMenu(createSessionUser({ profile: 'admin' }), { cshow: false }));
    for (const path of [...ALWAYS, ...ADMIN_ONLY]) expect(paths).toContain(path);
    for (const path of CAMPAIGNS) expect(paths).not.toContain(path);
    expect(paths).not.toContain('/announcements');
  });

  it('shows each plan-gated link only with its plan flag', () => {
    const cases = [
      ['useKanban', '/kanban'],
      ['useSchedules', '/schedules'],
      ['useInternalChat', '/chats'],
      ['useOpenAi', '/prompts'],
      ['useIntegrations', '/queue-integration'],
      ['useExternalApi', '/messages-api'],
      ['useReports', '/reports'],
    ] as const;
    for (const [flag, path] of cases) {
      const admin = { profile: 'admin' } as const;
      const without = menuPaths(buildMenu(createSessionUser(admin, { [flag]: false }), { cshow: false }));
      const withFlag = menuPaths(buildMenu(createSessionUser(admin, { [flag]: true }), { cshow: false }));
      expect(without).not.toContain(path);
      expect(withFlag).toContain(path);
    }
  });

  it('shows the reports next to the dashboard to admins whose plan has them, never to agents', () => {
    const admin = menuPaths(
      buildMenu(createSessionUser({ profile: 'admin' }, { useReports: true }), { cshow: false }),
    );
    expect(admin.slice(0, 2)).toEqual(['/', '/reports']);
    const agent = menuPaths(
      buildMenu(createSessionUser({ profile: 'user' }, { useReports: true }), { cshow: false }),
    );
    expect(agent).not.toContain('/reports');
  });

  it('shows the campaign submenu to admins whose plan has campaigns or with the cshow flag', () => {
    const admin = createSessionUser({ profile: 'admin' }, { useCampaigns: true });
    expect(menuPaths(buildMenu(admin, { cshow: false }))).toEqual(expect.arrayContaining(CAMPAIGNS));
    const adminNoPlan = createSessionUser({ profile: 'admin' }, { useCampaigns: false });
    expect(menuPaths(buildMenu(adminNoPlan, { cshow: true }))).toEqual(expect.arrayContaining(CAMPAIGNS));
    const agent = createSessionUser({ profile: 'user' }, { useCampaigns: true });
    expect(menuPaths(buildMenu(agent, { cshow: true }))).not.toContain('/campaigns');
  });

  it('shows announcements to the super user only', () => {
    expect(menuPaths(buildMenu(createSessionUser({ super: true }), { cshow: false }))).toContain(
      '/announcements',
    );
    expect(
      menuPaths(buildMenu(createSessionUser({ super: false, profile: 'admin' }), { cshow: false })),
    ).not.toContain('/announcements');
  });

  it('survives a company without plan', () => {
    const paths = menuPaths(buildMenu(createSessionUser({}, null), { cshow: false }));
    expect(paths).not.toContain('/kanban');
    expect(paths).toContain('/tickets');
  });
});
