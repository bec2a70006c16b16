import { QueryClient } from '@tanstack/react-query';
import type { Whatsapp } from '@zapdesk/shared';
import { describe, expect, it } from 'vitest';
import { createWhatsapp } from '../../test/fixtures';
import {
  applySessionEvent,
  applyWhatsappEvent,
  connectionsKeys,
  hasConnectionWarning,
} from './connections-cache';

describe('connections cache', () => {
  const setup = () => {
    const queryClient = new QueryClient();
    const a = createWhatsapp({ name: 'Alpha' });
    const c = createWhatsapp({ name: 'Charlie' });
    queryClient.setQueryData(connectionsKeys.list(), [a, c]);
    const names = () =>
      (queryClient.getQueryData<Whatsapp[]>(connectionsKeys.list()) ?? []).map((w) => w.name);
    return { queryClient, a, c, names };
  };

  it('inserts a new connection in name order, replaces a known one and deletes', () => {
    const { queryClient, a, c, names } = setup();
    const b = createWhatsapp({ name: 'Bravo' });
    applyWhatsappEvent(queryClient, { action: 'update', whatsapp: b });
    expect(names()).toEqual(['Alpha', 'Bravo', 'Charlie']);
    applyWhatsappEvent(queryClient, { action: 'update', whatsapp: { ...a, name: 'Alpha 2' } });
    expect(names()).toEqual(['Alpha 2', 'Bravo', 'Charlie']);
    applyWhatsappEvent(queryClient, { action: 'delete', whatsappId: c.id });
    expect(names()).toEqual(['Alpha 2', 'Bravo']);
  });

  it('merges session updates (status, qrcode, retries) into the list and the detail', () => {
    const { queryClient, a } = setup();
    queryClient.setQueryData(connectionsKeys.detail(a.id), a);
    applySessionEvent(queryClient, {
      action: 'update',
      session: { id: a.id, status: 'qrcode', qrcode: 'QR', retries: 2 },
    });
    const listed = queryClient.getQueryData<Whatsapp[]>(connectionsKeys.list())?.find((w) => w.id === a.id);
    expect(listed).toMatchObject({ name: 'Alpha', status: 'qrcode', qrcode: 'QR', retries: 2 });
    expect(queryClient.getQueryData<Whatsapp>(connectionsKeys.detail(a.id))?.qrcode).toBe('QR');
  });

  it('ignores malformed payloads', () => {
    const { queryClient, names } = setup();
    applyWhatsappEvent(queryClient, { action: 'update', whatsapp: null });
    applySessionEvent(queryClient, { action: 'update' });
    applyWhatsappEvent(queryClient, { action: 'delete' });
    expect(names()).toEqual(['Alpha', 'Charlie']);
  });

  it('warns for every state but CONNECTED', () => {
    expect(hasConnectionWarning([createWhatsapp({ status: 'CONNECTED' })])).toBe(false);
    expect(hasConnectionWarning(undefined)).toBe(false);
    for (const status of ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'] as const)
      expect(hasConnectionWarning([createWhatsapp({ status })])).toBe(true);
  });
});
