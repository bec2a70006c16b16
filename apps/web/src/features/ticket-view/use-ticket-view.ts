/** Queries and mutations of the open ticket view (core sections 2, 4 and 7). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Contact,
  Message,
  Queue,
  QuickMessage,
  Tag,
  Ticket,
  TicketFlowRun,
  TicketNote,
  UpdateTicketBody,
} from '@zapdesk/shared';
import { useRef } from 'react';
import { api } from '../../lib/api';
import { usePagedList } from '../../lib/record-queries';
import {
  applyMessageAnswer,
  type MessagesPage,
  type MessagesPages,
  ticketViewKeys,
  upsertNote,
} from './messages-cache';

/** GET /tickets/u/:uuid. Failures are handled by the view (403 and 404 go back to /tickets). */
export function useTicket(uuid: string) {
  return useQuery({
    queryKey: ticketViewKeys.ticket(uuid),
    queryFn: ({ signal }) => api.get<Ticket>(`/tickets/u/${encodeURIComponent(uuid)}`, undefined, signal),
    retry: false,
    meta: { silent: true },
  });
}

/** GET /messages/:ticketId?pageNumber=N; page 1 is the newest, later pages are older. */
export function useMessages(ticketId: number | undefined, contactId: number | undefined) {
  return usePagedList<MessagesPage>(
    ticketViewKeys.messages(ticketId ?? 0, contactId ?? 0),
    `/messages/${ticketId}`,
    (pageNumber) => ({ pageNumber }),
    { enabled: typeof ticketId === 'number' && typeof contactId === 'number', staleTime: 0 },
  );
}

/** Keeps the viewed ticket's cache in step with a ticket answered by the API. */
function useSetTicket() {
  const queryClient = useQueryClient();
  return (ticket: Ticket) =>
    queryClient.setQueryData<Ticket>(ticketViewKeys.ticket(ticket.uuid), (old) =>
      old ? { ...old, ...ticket } : ticket,
    );
}

/** PUT /tickets/:id (accept, return, resolve, reopen, transfer). */
export function useUpdateTicket(ticketId: number) {
  const setTicket = useSetTicket();
  return useMutation({
    mutationFn: (body: UpdateTicketBody) => api.put<Ticket>(`/tickets/${ticketId}`, body),
    onSuccess: (ticket) => {
      if (ticket && typeof ticket === 'object' && 'uuid' in ticket) setTicket(ticket);
    },
  });
}

/** DELETE /tickets/:id (admins). */
export function useDeleteTicket(ticketId: number) {
  return useMutation({ mutationFn: () => api.delete(`/tickets/${ticketId}`) });
}

/** GET /tags/list. */
export function useTags() {
  return useQuery({
    queryKey: ticketViewKeys.tags(),
    queryFn: ({ signal }) => api.get<Tag[]>('/tags/list', undefined, signal),
  });
}

/** POST /tags/sync {ticketId, tags: ids}: the ticket's tags become exactly `tags`. */
export function useSyncTags(ticketId: number) {
  const setTicket = useSetTicket();
  return useMutation({
    mutationFn: (tags: number[]) => api.post<Ticket>('/tags/sync', { ticketId, tags }),
    onSuccess: (ticket) => {
      if (ticket && typeof ticket === 'object' && 'uuid' in ticket) setTicket(ticket);
    },
  });
}

/** GET /queue (transfer dialog). */
export function useTransferQueues(enabled: boolean) {
  return useQuery({
    queryKey: ticketViewKeys.queues(),
    queryFn: ({ signal }) => api.get<Queue[]>('/queue', undefined, signal),
    enabled,
  });
}

/** GET /users/list (transfer dialog). */
export function useTransferUsers(enabled: boolean) {
  return useQuery({
    queryKey: ticketViewKeys.users(),
    queryFn: ({ signal }) => api.get<{ id: number; name: string }[]>('/users/list', undefined, signal),
    enabled,
  });
}

/** GET /quick-messages/list (the composer's '/' suggestions). */
export function useQuickMessages(enabled = true) {
  return useQuery({
    queryKey: ticketViewKeys.quickMessages(),
    queryFn: ({ signal }) => api.get<QuickMessage[]>('/quick-messages/list', undefined, signal),
    enabled,
    meta: { silent: true },
  });
}

/** What the composer sends: text, files (multipart), the sign flag and the quoted message. */
export interface SendMessageInput {
  body: string;
  files?: File[];
  signMessage: boolean;
  quotedMsgId?: number | null;
}

/**
 * POST /messages/:ticketId as JSON, or multipart when files are attached. Sends to one ticket run one
 * at a time in the order they were made (the mutation scope), so messages typed quickly one after
 * another reach the customer in order.
 */
export function useSendMessage(ticketId: number, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: `send-message-${ticketId}` },
    mutationFn: ({ body, files, signMessage, quotedMsgId }: SendMessageInput) => {
      if (files && files.length > 0) {
        const form = new FormData();
        for (const file of files) form.append('medias', file, file.name);
        form.append('body', body);
        form.append('signMessage', signMessage ? 'true' : 'false');
        if (quotedMsgId) form.append('quotedMsgId', String(quotedMsgId));
        return api.post<Message[]>(`/messages/${ticketId}`, form);
      }
      return api.post<Message[]>(`/messages/${ticketId}`, {
        body,
        signMessage,
        ...(quotedMsgId ? { quotedMsg: { id: quotedMsgId } } : {}),
      });
    },
    onSuccess: (messages) => {
      for (const message of Array.isArray(messages) ? messages : [])
        applyMessageAnswer(queryClient, ticketViewKeys.messages(ticketId, contactId), message);
    },
    onError: () => {
      // A failed send is stored with ack -1: show it (with its retry button) even without the socket.
      void queryClient.invalidateQueries({ queryKey: ticketViewKeys.messages(ticketId, contactId) });
    },
  });
}

/** POST /messages/:id/retry (a failed message). */
export function useRetryMessage(ticketId: number, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<Message>(`/messages/${id}/retry`),
    onSuccess: (message) => {
      if (message && typeof message === 'object' && 'id' in message)
        applyMessageAnswer(queryClient, ticketViewKeys.messages(ticketId, contactId), message);
    },
  });
}

/** DELETE /messages/:id (own messages only). */
export function useDeleteMessage(ticketId: number, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<Message | undefined>(`/messages/${id}`),
    onSuccess: (message, id) => {
      const key = ticketViewKeys.messages(ticketId, contactId);
      if (message && typeof message === 'object' && 'id' in message)
        applyMessageAnswer(queryClient, key, message);
      else void queryClient.invalidateQueries({ queryKey: key });
      return id;
    },
  });
}

/** GET /contacts/:id (the drawer needs the extra info). */
export function useContact(id: number) {
  return useQuery({
    queryKey: ticketViewKeys.contact(id),
    queryFn: ({ signal }) => api.get<Contact>(`/contacts/${id}`, undefined, signal),
  });
}

/** PUT /contacts/:id {name, number, email}. */
export function useSaveContact(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; number: string; email: string }) =>
      api.put<Contact>(`/contacts/${id}`, body),
    onSuccess: (contact) => {
      if (!contact || typeof contact !== 'object') return;
      queryClient.setQueryData<Contact>(ticketViewKeys.contact(id), (old) => ({ ...old, ...contact }));
      queryClient.setQueriesData<Ticket>({ queryKey: ticketViewKeys.tickets() }, (old) =>
        old && old.contact.id === id
          ? {
              ...old,
              contact: { ...old.contact, name: contact.name, number: contact.number, email: contact.email },
            }
          : old,
      );
    },
  });
}

/** GET /ticket-notes/list?ticketId=&contactId=. */
export function useNotes(ticketId: number, contactId: number) {
  return useQuery({
    queryKey: ticketViewKeys.notes(ticketId, contactId),
    queryFn: ({ signal }) => api.get<TicketNote[]>('/ticket-notes/list', { ticketId, contactId }, signal),
  });
}

/**
 * POST /ticket-notes {note, ticketId, contactId, mentionedUserIds}: the note joins the drawer's list
 * and the conversation at once (the socket event brings it to colleagues).
 */
export function useAddNote(ticketId: number, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ note, mentionedUserIds = [] }: { note: string; mentionedUserIds?: number[] }) =>
      api.post<TicketNote>('/ticket-notes', {
        note,
        ticketId,
        contactId,
        ...(mentionedUserIds.length ? { mentionedUserIds } : {}),
      }),
    onSuccess: (note) => {
      queryClient.setQueryData<MessagesPages>(ticketViewKeys.messages(ticketId, contactId), (d) =>
        upsertNote(d, note),
      );
      return queryClient.invalidateQueries({ queryKey: ticketViewKeys.notes(ticketId, contactId) });
    },
  });
}

/** GET /ticket-notes/mentionable: the users a note on the ticket may mention (loaded when `enabled`). */
export function useMentionable(ticketId: number, enabled: boolean) {
  return useQuery({
    queryKey: ticketViewKeys.mentionable(ticketId),
    queryFn: ({ signal }) =>
      api.get<{ id: number; name: string }[]>('/ticket-notes/mentionable', { ticketId }, signal),
    enabled,
    staleTime: 60_000,
  });
}

/** Least time between two typing notices sent for one ticket, ms (the server drops repeats too). */
export const TYPING_NOTICE_MS = 4000;

/**
 * The agent's typing shown to the customer: `typing()` posts 'composing' to POST
 * /messages/:ticketId/presence at most once per TYPING_NOTICE_MS; failures are ignored (a hint).
 */
export function useTypingNotice(ticketId: number) {
  const last = useRef(0);
  return {
    typing: () => {
      const now = Date.now();
      if (now - last.current < TYPING_NOTICE_MS) return;
      last.current = now;
      api.post(`/messages/${ticketId}/presence`, { presence: 'composing' }).catch(() => {});
    },
  };
}

/** DELETE /ticket-notes/:id. */
export function useDeleteNote(ticketId: number, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/ticket-notes/${id}`),
    onSuccess: (_v, id) => {
      queryClient.setQueryData<TicketNote[]>(ticketViewKeys.notes(ticketId, contactId), (old) =>
        old?.filter((n) => n.id !== id),
      );
    },
  });
}

/**
 * GET /tickets/:id/flow-run: the flow run the conversation is in, or null. Asked
 * again whenever the newest message changes (`newestMessageId`): each flow step sends or awaits a
 * message, so the run moves only with the conversation. Silent: the chip is only a hint.
 */
export function useTicketFlowRun(ticketId: number, newestMessageId: number | undefined) {
  return useQuery({
    queryKey: [...ticketViewKeys.flowRun(ticketId), newestMessageId ?? 0],
    queryFn: ({ signal }) => api.get<TicketFlowRun>(`/tickets/${ticketId}/flow-run`, undefined, signal),
    retry: false,
    placeholderData: (previous) => previous,
    meta: { silent: true },
  });
}
