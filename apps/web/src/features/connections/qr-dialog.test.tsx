import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useRealtime } from '../../app/use-realtime';
import { writeSession } from '../../lib/storage';
import { fake } from '../../test/fake-socket';
import { createSessionUser, createWhatsapp } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { QrDialog } from './qr-dialog';

vi.mock('../../lib/socket', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/socket')>()),
  connectSocket: (await import('../../test/fake-socket')).connectFakeSocket,
}));

const me = createSessionUser({ id: 5, companyId: 3, profile: 'admin' });

/** The realtime hook plus a QR dialog that can close, as on the connections page. */
function Harness({ whatsappId, children }: { whatsappId: number; children?: ReactNode }) {
  useRealtime(me);
  const [open, setOpen] = useState(true);
  return (
    <>
      {open && <QrDialog whatsappId={whatsappId} onClose={() => setOpen(false)} />}
      {!open && <span data-testid="closed" />}
      {children}
    </>
  );
}

describe('QrDialog', () => {
  const connection = createWhatsapp({
    id: 40,
    companyId: 3,
    name: 'Phone',
    status: 'qrcode',
    qrcode: 'first-qr',
  });

  beforeEach(() => {
    writeSession('tok', 3, 5);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input).startsWith('/api/whatsapp/40')
          ? json(200, connection)
          : json(404, { error: 'ERR_NOT_FOUND' }),
      ),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const qrValue = () => screen.getByTestId('qr-code').getAttribute('data-value');

  it('renders the QR at 256 px, follows session events and closes when the QR becomes empty', async () => {
    renderWithProviders(<Harness whatsappId={40} />, { user: me });
    await screen.findByTestId('qr-code');
    expect(qrValue()).toBe('first-qr');
    expect(screen.getByTestId('qr-code').getAttribute('width')).toBe('256');

    act(() => {
      fake.socket?.emit('company-3-whatsappSession', {
        action: 'update',
        session: { ...connection, qrcode: 'second-qr' },
      });
    });
    await waitFor(() => expect(qrValue()).toBe('second-qr'));

    // An event of another connection changes nothing.
    act(() => {
      fake.socket?.emit('company-3-whatsappSession', {
        action: 'update',
        session: { ...connection, id: 41, qrcode: '' },
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByTestId('qr-dialog')).toBeTruthy();
    expect(qrValue()).toBe('second-qr');

    act(() => {
      fake.socket?.emit('company-3-whatsappSession', {
        action: 'update',
        session: { ...connection, status: 'CONNECTED', qrcode: '' },
      });
    });
    expect(await screen.findByTestId('closed')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('qr-dialog')).toBeNull());
  });

  it('stays open through a restart of the session and shows the new code', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${String(input)}`);
        if (String(input) === '/api/whatsappsession/40') return new Response(null, { status: 204 });
        return json(200, connection);
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<Harness whatsappId={40} />, { user: me });
    await screen.findByTestId('qr-code');
    await user.click(screen.getByTestId('qr-dialog-new-qr'));
    await waitFor(() => expect(calls).toContain('PUT /api/whatsappsession/40'));
    // The restart's steps: stopped (QR cleared), opening, then the new code.
    const emit = (session: object) =>
      act(() => {
        fake.socket?.emit('company-3-whatsappSession', {
          action: 'update',
          session: { ...connection, ...session },
        });
      });
    emit({ status: 'DISCONNECTED', qrcode: '' });
    emit({ status: 'OPENING', qrcode: '' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByTestId('qr-dialog')).toBeTruthy();
    expect(screen.queryByTestId('closed')).toBeNull();
    emit({ status: 'qrcode', qrcode: 'after-restart' });
    await waitFor(() => expect(qrValue()).toBe('after-restart'));

    // A session that stops for good says so, and the dialog waits for the user.
    emit({ status: 'DISCONNECTED', qrcode: '' });
    expect(await screen.findByTestId('qr-stopped')).toBeTruthy();
    expect(screen.queryByTestId('closed')).toBeNull();
  });

  it('waits for the QR when the connection it opens with has none yet', async () => {
    const opening = { ...connection, id: 42, status: 'OPENING' as const, qrcode: '' };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, opening)),
    );
    renderWithProviders(<Harness whatsappId={42} />, { user: me });
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByTestId('qr-dialog')).toBeTruthy();
    expect(screen.queryByTestId('qr-code')).toBeNull();

    act(() => {
      fake.socket?.emit('company-3-whatsappSession', {
        action: 'update',
        session: { ...opening, status: 'qrcode', qrcode: 'late-qr' },
      });
    });
    await waitFor(() => expect(qrValue()).toBe('late-qr'));
  });
});
