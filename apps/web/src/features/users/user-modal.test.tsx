import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { createSessionUser, createUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { UserModal } from './user-modal';

describe('UserModal', () => {
  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/queue')) return json(200, [{ id: 1, name: 'Sales', color: '#ff0000' }]);
    if (url.startsWith('/api/whatsapp')) return json(404, { error: 'ERR_NOT_FOUND' });
    if (url === '/api/users' && method === 'POST') {
      const body = JSON.parse(String(init?.body));
      return json(200, createUser({ name: body.name, email: body.email }));
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });

  const admin = createSessionUser({ profile: 'admin' });

  it('shows Required, Too Short! and Invalid email on an empty or wrong form', async () => {
    const user = userEvent.setup();
    renderWithProviders(<UserModal open onClose={() => {}} />, { user: admin });
    await user.click(screen.getByTestId('user-modal-save'));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    expect(screen.getByText('Too Short!')).toBeTruthy();

    await user.type(screen.getByLabelText('Name'), 'A');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), '12345');
    await waitFor(() => expect(screen.getByText('Invalid email')).toBeTruthy());
    expect(screen.getAllByText('Too Short!')).toHaveLength(1);
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/users')).toBe(false);
  });

  it("shows the spec's quoted messages in pt as well (core section 5)", async () => {
    await i18n.changeLanguage('pt');
    try {
      const user = userEvent.setup();
      renderWithProviders(<UserModal open onClose={() => {}} />, { user: admin });
      await user.click(screen.getByTestId('user-modal-save'));
      expect(await screen.findAllByText('Required')).toHaveLength(2);
      expect(screen.getByText('Too Short!')).toBeTruthy();
      await user.type(screen.getByLabelText('Email'), 'not-an-email');
      await waitFor(() => expect(screen.getByText('Invalid email')).toBeTruthy());
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('shows Too Long! for a name over 50 characters', async () => {
    const user = userEvent.setup();
    renderWithProviders(<UserModal open onClose={() => {}} />, { user: admin });
    await user.type(screen.getByLabelText('Name'), 'x'.repeat(51));
    await user.click(screen.getByTestId('user-modal-save'));
    expect(await screen.findByText('Too Long!')).toBeTruthy();
  });

  it('creates a valid user, toasts and closes', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<UserModal open onClose={onClose} />, { user: admin });
    await user.type(screen.getByLabelText('Name'), 'Ana Souza');
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByTestId('user-modal-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(([url]) => String(url) === '/api/users');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
      name: 'Ana Souza',
      email: 'ana@example.com',
      password: 'secret1',
      profile: 'user',
      queueIds: [],
      maxOpenTickets: 0,
    });
    expect(await screen.findByText('User saved successfully!')).toBeTruthy();
  });

  it('shows profile and queues only to admins', () => {
    renderWithProviders(<UserModal open onClose={() => {}} />, { user: admin });
    expect(screen.getByLabelText('Profile')).toBeTruthy();
    expect(screen.getByLabelText('Queues')).toBeTruthy();
    expect(screen.getByLabelText('Default connection')).toBeTruthy();
  });

  it('hides profile, queues and connection from an agent', () => {
    renderWithProviders(<UserModal open onClose={() => {}} />, {
      user: createSessionUser({ profile: 'user' }),
    });
    expect(screen.queryByLabelText('Profile')).toBeNull();
    expect(screen.queryByLabelText('Queues')).toBeNull();
    expect(screen.queryByLabelText('Default connection')).toBeNull();
  });

  it('sends the capacity an admin types, and refuses one over 1000', async () => {
    const user = userEvent.setup();
    renderWithProviders(<UserModal open onClose={() => {}} />, { user: admin });
    await user.type(screen.getByLabelText('Name'), 'Ana Souza');
    await user.type(screen.getByLabelText('Email'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    const max = screen.getByTestId('user-max-open-tickets');
    await user.clear(max);
    await user.type(max, '1001');
    await user.click(screen.getByTestId('user-modal-save'));
    expect(await screen.findByText('Invalid value')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/users')).toBe(false);
    await user.clear(max);
    await user.type(max, '3');
    await user.click(screen.getByTestId('user-modal-save'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/users')).toBe(true),
    );
    const post = fetchMock.mock.calls.find(([url]) => String(url) === '/api/users');
    expect(JSON.parse(String(post?.[1]?.body)).maxOpenTickets).toBe(3);
  });
});
