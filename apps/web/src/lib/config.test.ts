import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  for (const meta of document.head.querySelectorAll('meta[name="zapdesk-api-base"]')) meta.remove();
  vi.resetModules();
});

describe('API_BASE', () => {
  it("is '/api' when the page names no API prefix (the dev server)", async () => {
    const { API_BASE } = await import('./config');
    expect(API_BASE).toBe('/api');
  });

  it('follows the prefix the server names in the page, empty included', async () => {
    const meta = document.createElement('meta');
    meta.name = 'zapdesk-api-base';
    meta.content = '';
    document.head.append(meta);
    expect((await import('./config')).API_BASE).toBe('');
    vi.resetModules();
    meta.content = '/backend';
    expect((await import('./config')).API_BASE).toBe('/backend');
  });
});
