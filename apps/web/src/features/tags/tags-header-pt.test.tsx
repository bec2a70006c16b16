import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { TagsPage } from './tags-page';

describe('tags page in pt', () => {
  stubFetch(({ url }) =>
    url.startsWith('/api/tags/?')
      ? json(200, {
          tags: [{ id: 3, name: 'VIP', color: '#FF0000', kanban: 1, ticketsCount: 12 }],
          hasMore: false,
        })
      : json(404, { error: 'ERR_NOT_FOUND' }),
  );

  it("heads the ticket count 'Tickets com a tag' (no invented word such as 'Tagdos')", async () => {
    await i18n.changeLanguage('pt');
    try {
      renderWithProviders(<TagsPage />, { user: createSessionUser({ profile: 'admin' }) });
      expect(await screen.findByText('VIP')).toBeTruthy();
      const headers = screen.getAllByRole('columnheader').map((h) => h.textContent?.trim());
      expect(headers).toEqual(['Nome', 'Tickets com a tag', 'Kanban', 'Ações']);
      expect(document.body.textContent).not.toMatch(/Tagdos/i);
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
