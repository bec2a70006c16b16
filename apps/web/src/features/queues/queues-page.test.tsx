import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { QueuesPage } from './queues-page';

describe('QueuesPage', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input) === '/api/queue'
          ? json(200, [
              {
                id: 3,
                name: 'Vendas',
                color: '#B80000',
                orderQueue: 1,
                greetingMessage: 'Bem-vindo',
                outOfHoursMessage: null,
              },
            ])
          : json(404, { error: 'ERR_NOT_FOUND' }),
      ),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows id, name, colour, order and greeting of each queue', async () => {
    renderWithProviders(<QueuesPage />, { user: createSessionUser({ profile: 'admin' }) });
    const row = await screen.findByTestId('queue-row-3');
    const cells = within(row);
    expect(cells.getByText('Vendas')).toBeTruthy();
    expect(cells.getByText('#B80000')).toBeTruthy();
    expect(cells.getByText('Bem-vindo')).toBeTruthy();
    expect(screen.getByTestId('queues-table')).toBeTruthy();
    expect(screen.getByTestId('add-queue-button')).toBeTruthy();
  });
});
