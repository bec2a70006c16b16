import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Contact, TicketNote } from '@zapdesk/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { createSessionUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { ContactDrawer } from './contact-drawer';
import { json, makeTicket, mockFetch } from './test-helpers';

const me = createSessionUser({ id: 5, name: 'Agente' });
const ticket = makeTicket({ id: 3 });

const contact: Contact = {
  ...ticket.contact,
  companyId: 1,
  extraInfo: [{ id: 1, name: 'CPF', value: '123.456.789-00' }],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const note = (id: number, text: string): TicketNote => ({
  id,
  note: text,
  ticketId: 3,
  contactId: 50,
  userId: 5,
  user: { id: 5, name: 'Agente' },
  mentionedUserIds: [],
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
});

function renderDrawer(user = me) {
  let notes = [note(1, 'Cliente prefere contato à tarde')];
  const api = mockFetch({
    'GET /api/contacts/50': contact,
    'PUT /api/contacts/50': (_url: URL, init?: RequestInit) =>
      json(200, { ...contact, ...(JSON.parse(String(init?.body)) as object) }),
    'GET /api/ticket-notes/list': () => json(200, notes),
    'POST /api/ticket-notes': (_url: URL, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as { note: string };
      const created = note(2, body.note);
      notes = [...notes, created];
      return json(201, created);
    },
    'DELETE /api/ticket-notes/\\d+': () => new Response(null, { status: 204 }),
  });
  const onClose = vi.fn();
  const result = renderWithProviders(<ContactDrawer ticket={ticket} onClose={onClose} />, { user });
  return { ...result, ...api, onClose };
}

describe('ContactDrawer', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("offers 'schedule a message' for the contact only when the plan has schedules", () => {
    const { unmount } = renderDrawer(createSessionUser({ id: 5 }, { useSchedules: true }));
    expect(screen.getByTestId('contact-schedule').getAttribute('href')).toBe(
      `/schedules?contactId=${ticket.contact.id}`,
    );
    unmount();
    renderDrawer(createSessionUser({ id: 5 }, { useSchedules: false }));
    expect(screen.queryByTestId('contact-schedule')).toBeNull();
  });

  it('shows name, tel: and mailto: links and the extra info', async () => {
    renderDrawer();
    const drawer = screen.getByTestId('contact-drawer');
    expect(within(drawer).getByTestId('contact-drawer-name').textContent).toBe('Maria Cliente');
    expect(screen.getByTestId('contact-drawer-number').getAttribute('href')).toBe('tel:5511999990000');
    expect(screen.getByTestId('contact-drawer-email').getAttribute('href')).toBe('mailto:maria@example.com');
    const extra = await screen.findByTestId('contact-extra-info');
    expect(extra.textContent).toContain('CPF');
    expect(extra.textContent).toContain('123.456.789-00');
  });

  it('validates and saves the contact form', async () => {
    const { calls } = renderDrawer();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('contact-edit'));
    const name = screen.getByTestId('contact-form-name');
    const number = screen.getByTestId('contact-form-number');
    const email = screen.getByTestId('contact-form-email');
    await user.clear(name);
    await user.type(name, 'M');
    await user.clear(number);
    await user.type(number, '123');
    await user.clear(email);
    await user.type(email, 'not-an-email');
    await user.click(screen.getByTestId('contact-form-save'));
    expect(await screen.findAllByText('Too Short!')).toHaveLength(2);
    expect(screen.getByText('Invalid email')).toBeTruthy();
    expect(calls('PUT', '/api/contacts/50')).toHaveLength(0);

    await user.clear(name);
    await user.type(name, 'Maria Souza');
    await user.clear(number);
    await user.type(number, '5511988887777');
    await user.clear(email);
    await user.click(screen.getByTestId('contact-form-save'));
    await waitFor(() => expect(calls('PUT', '/api/contacts/50')).toHaveLength(1));
    expect(calls('PUT', '/api/contacts/50')[0]?.body).toEqual({
      name: 'Maria Souza',
      number: '5511988887777',
      email: '',
    });
    expect(await screen.findByText('Contact saved successfully.')).toBeTruthy();
    expect(screen.getByTestId('contact-drawer-name').textContent).toBe('Maria Souza');
  });

  it('adds a note (at least 2 characters) with the success toast', async () => {
    const { calls } = renderDrawer();
    expect(await screen.findByTestId('note-item-1')).toBeTruthy();
    expect(calls('GET', '/api/ticket-notes/list')[0]?.url.search).toBe('?ticketId=3&contactId=50');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('note-save'));
    expect(await screen.findByText('Required')).toBeTruthy();
    await user.type(screen.getByTestId('note-input'), 'x');
    await user.click(screen.getByTestId('note-save'));
    expect(await screen.findByText('Too Short!')).toBeTruthy();
    expect(calls('POST', '/api/ticket-notes')).toHaveLength(0);
    await user.type(screen.getByTestId('note-input'), 'y');
    await user.click(screen.getByTestId('note-save'));
    await waitFor(() => expect(calls('POST', '/api/ticket-notes')).toHaveLength(1));
    expect(calls('POST', '/api/ticket-notes')[0]?.body).toEqual({ note: 'xy', ticketId: 3, contactId: 50 });
    expect(await screen.findByText('Note added successfully!')).toBeTruthy();
    expect((await screen.findByTestId('note-item-2')).textContent).toContain('xy');
    expect((screen.getByTestId('note-input') as HTMLTextAreaElement).value).toBe('');
  });

  it('deletes a note after the confirmation with the success toast', async () => {
    const { calls } = renderDrawer();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('note-delete-1'));
    expect(await screen.findByText('Do you really want to delete this record?')).toBeTruthy();
    expect(calls('DELETE', '/api/ticket-notes/')).toHaveLength(0);
    await user.click(screen.getByTestId('confirm-button'));
    await waitFor(() => expect(calls('DELETE', '/api/ticket-notes/1')).toHaveLength(1));
    expect(await screen.findByText('Note deleted successfully!')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('note-item-1')).toBeNull());
  });

  it("keeps the spec's Portuguese words", () => {
    const pt = i18n.getFixedT('pt');
    expect(pt('ticketView.noteAdded')).toBe('Observação adicionada com sucesso!');
    expect(pt('ticketView.noteDeleted')).toBe('Observação excluída com sucesso!');
    expect(pt('ticketView.confirmDelete')).toBe('Deseja realmente excluir este registro?');
    expect(pt('pages.noPermission')).toBe('Acesso não permitido');
  });
});
