import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TicketNote } from '@zapdesk/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { Composer } from './composer';
import { insertMention, mentionAt, mentionedIds, mentionOptions } from './mentions';
import { buildHistoryRows, MessageList } from './message-list';
import { flattenNotes, removeNote, upsertNote } from './messages-cache';
import { json, makeMessage, makeTicket, mockFetch } from './test-helpers';

const me = createSessionUser({ id: 5 });

const note = (id: number, createdAt: string, text = `nota ${id}`): TicketNote => ({
  id,
  note: text,
  ticketId: 1,
  contactId: 50,
  userId: 9,
  user: { id: 9, name: 'Ana Supervisora' },
  mentionedUserIds: [],
  createdAt,
  updatedAt: createdAt,
});

describe('notes in the conversation', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('places each note before the first message newer than it, and the newest ones last', () => {
    const messages = [
      makeMessage({ id: 1, createdAt: '2026-03-01T10:00:00.000Z' }),
      makeMessage({ id: 2, createdAt: '2026-03-01T10:05:00.000Z' }),
    ];
    const rows = buildHistoryRows(messages, [
      note(10, '2026-03-01T10:02:00.000Z'),
      note(11, '2026-03-01T10:09:00.000Z'),
    ]);
    expect(rows.filter((r) => r.kind !== 'day').map((r) => r.key)).toEqual([
      'message-1',
      'note-10',
      'message-2',
      'note-11',
    ]);
  });

  it('merges the notes of every page once and applies live creates and deletes', () => {
    const data = {
      pageParams: [1, 2],
      pages: [
        { messages: [], hasMore: true, count: 0, notes: [note(2, '2026-03-01T10:02:00.000Z')] },
        {
          messages: [],
          hasMore: false,
          count: 0,
          notes: [note(1, '2026-03-01T10:01:00.000Z'), note(2, '2026-03-01T10:02:00.000Z')],
        },
      ],
    };
    expect(flattenNotes(data).map((n) => n.id)).toEqual([1, 2]);
    const added = upsertNote(data, note(3, '2026-03-01T10:03:00.000Z'));
    expect(flattenNotes(added).map((n) => n.id)).toEqual([1, 2, 3]);
    expect(flattenNotes(removeNote(added, 2)).map((n) => n.id)).toEqual([1, 3]);
  });

  it('shows a note as an internal note bubble with its author among the messages', async () => {
    mockFetch({
      'GET /api/messages/\\d+': () =>
        json(200, {
          messages: [makeMessage({ id: 1, body: 'oi', createdAt: '2026-03-01T10:00:00.000Z' })],
          hasMore: false,
          count: 1,
          notes: [note(10, '2026-03-01T10:01:00.000Z', 'ligar amanhã')],
        }),
    });
    renderWithProviders(<MessageList ticket={makeTicket({ id: 1 })} onReply={vi.fn()} />, { user: me });
    const bubble = await screen.findByTestId('note-bubble-10');
    expect(within(bubble).getByText('Internal note')).toBeTruthy();
    expect(within(bubble).getByText('ligar amanhã')).toBeTruthy();
    expect(within(bubble).getByTestId('note-author').textContent).toContain('Ana Supervisora');
    expect(bubble.getAttribute('role')).toBe('note');
  });
});

describe('the composer in note mode', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('saves a note with its mention on Enter instead of sending a message', async () => {
    const api = mockFetch({
      'GET /api/quick-messages/list': [],
      'GET /api/ticket-notes/mentionable': [
        { id: 7, name: 'Agente Bruno' },
        { id: 8, name: 'Carla' },
      ],
      'POST /api/ticket-notes': (_url: URL, init: RequestInit | undefined) =>
        json(201, { ...note(20, '2026-03-01T10:10:00.000Z'), ...JSON.parse(String(init?.body)) }),
      'POST /api/messages/\\d+/presence': () => json(204, undefined),
    });
    renderWithProviders(
      <Composer ticket={makeTicket({ id: 1, status: 'open' })} replyTo={null} onCancelReply={vi.fn()} />,
      { user: me },
    );
    await userEvent.click(screen.getByTestId('composer-mode-note'));
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    expect(input.getAttribute('aria-label')).toBe('Internal note');
    expect(screen.queryByTestId('composer-attach-button')).toBeNull();
    await userEvent.type(input, 'veja @bru');
    expect(await screen.findByTestId('mention-option-7')).toBeTruthy();
    expect(screen.queryByTestId('mention-option-8')).toBeNull();
    await userEvent.type(input, '{Enter}');
    expect(input.value).toBe('veja @Agente Bruno ');
    await userEvent.type(input, 'por favor{Enter}');
    await waitFor(() => expect(api.calls('POST', '/api/ticket-notes')).toHaveLength(1));
    expect(api.calls('POST', '/api/ticket-notes')[0]?.body).toEqual({
      note: 'veja @Agente Bruno por favor',
      ticketId: 1,
      contactId: makeTicket().contact.id,
      mentionedUserIds: [7],
    });
    expect(api.calls('POST', '/api/messages/1')).toHaveLength(0);
    await waitFor(() => expect(input.value).toBe(''));
  });

  it('tells the customer the agent is typing while replying, once for a burst of keys', async () => {
    const api = mockFetch({
      'GET /api/quick-messages/list': [],
      'POST /api/messages/\\d+/presence': () => json(204, undefined),
    });
    renderWithProviders(
      <Composer ticket={makeTicket({ id: 1, status: 'open' })} replyTo={null} onCancelReply={vi.fn()} />,
      { user: me },
    );
    await userEvent.type(screen.getByTestId('composer-input'), 'olá tudo bem');
    await waitFor(() => expect(api.calls('POST', '/api/messages/1/presence')).toHaveLength(1));
    expect(api.calls('POST', '/api/messages/1/presence')[0]?.body).toEqual({ presence: 'composing' });
  });
});

describe('mention helpers', () => {
  it('finds the @word at the caret, matches names without accents, inserts and keeps only mentions still written', () => {
    expect(mentionAt('oi @jo', 6)).toEqual({ start: 3, query: 'jo' });
    expect(mentionAt('email@x', 7)).toBeNull();
    expect(
      mentionOptions('jo', [
        { id: 1, name: 'João Silva' },
        { id: 2, name: 'Maria' },
      ]),
    ).toEqual([{ id: 1, name: 'João Silva' }]);
    expect(mentionOptions('sil', [{ id: 1, name: 'João Silva' }])).toHaveLength(1);
    expect(insertMention('oi @jo!', 3, 6, 'João Silva')).toEqual({ text: 'oi @João Silva !', caret: 15 });
    expect(
      mentionedIds('ok @João Silva', [
        { id: 1, name: 'João Silva' },
        { id: 2, name: 'Maria' },
      ]),
    ).toEqual([1]);
  });
});
