import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { withMatchMedia } from '../../test/media-query';
import { renderWithProviders } from '../../test/render';
import { TicketsPage } from './tickets-page';

const viewModule = vi.hoisted(() => ({ loads: 0 }));

vi.mock('../ticket-view/ticket-view', () => ({
  // Counts the lazy chunk's loads: the factory runs when the module is first imported.
  ...(() => {
    viewModule.loads += 1;
    return {};
  })(),
  TicketView: ({ uuid }: { uuid: string }) => {
    if (uuid === 'broken') throw new Error('boom');
    return <div data-testid="ticket-view">{uuid}</div>;
  },
}));

describe('TicketsPage', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, { tickets: [], hasMore: false, count: 0 })),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const renderAt = (route: string) =>
    renderWithProviders(
      <Routes>
        <Route path="/tickets/:uuid?" element={<TicketsPage />} />
      </Routes>,
      { user: createSessionUser(), route },
    );

  it('shows the manager beside the logo placeholder when no ticket is chosen', () => {
    renderAt('/tickets');
    expect(screen.getByTestId('tickets-manager')).toBeTruthy();
    expect(screen.getByTestId('ticket-placeholder')).toBeTruthy();
  });

  it("fetches the ticket view's code only when the pointer reaches the list, before a click", async () => {
    renderAt('/tickets');
    await screen.findByTestId('tickets-manager');
    expect(viewModule.loads).toBe(0);
    fireEvent.pointerEnter(screen.getByTestId('tickets-manager').parentElement as HTMLElement);
    await waitFor(() => expect(viewModule.loads).toBe(1));
  });

  it('shows the open ticket by uuid beside the manager', async () => {
    renderAt('/tickets/abc-123');
    expect((await screen.findByTestId('ticket-view')).textContent).toBe('abc-123');
    expect(screen.getByTestId('tickets-manager')).toBeTruthy();
  });

  it('keeps the manager when the ticket view fails', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/tickets/broken');
    expect(await screen.findByTestId('ticket-view-error')).toBeTruthy();
    expect(screen.getByTestId('tickets-manager')).toBeTruthy();
    spy.mockRestore();
  });

  it('uses two tabs (ticket, attendance list) under 600 px', () =>
    withMatchMedia(
      (query) => query.includes('max-width'),
      async () => {
        renderAt('/tickets/abc-123');
        expect(screen.getByTestId('tickets-mobile-tab-ticket').getAttribute('aria-selected')).toBe('true');
        expect(screen.getByTestId('tickets-mobile-tab-list')).toBeTruthy();
        expect(await screen.findByTestId('ticket-view')).toBeTruthy();
      },
    ));
});
