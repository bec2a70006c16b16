/**
 * The realtime connection of a signed-in user (core sections 4 and 7): listens on
 * `company-{id}-auth` (duplicate login: toast, then clear storage and reload after 1 s),
 * `company-{id}-user` (users cache), `company-{id}-whatsapp` and `company-{id}-whatsappSession`
 * (connections cache), ticket, message and contact events, and the lists of tags, queues, quick
 * messages and contacts (create, update, delete: `features/common/live-lists`), campaigns
 * (`company-{id}-campaign`: list, report totals and progress), `company-{id}-payment`
 * (CONCLUIDA: billing queries, session due date, checkout), `company-{id}-sla` (a toast that opens
 * the ticket: features/tickets/sla-toast); reloads 1 s after a
 * `connect_error` of ERR_SESSION_EXPIRED.
 */

import { useQueryClient } from '@tanstack/react-query';
import { RELOAD_DELAY_MS, type SessionUser, SOCKET_HEARTBEAT_MS, TOAST_ERROR_MS } from '@zapdesk/shared';
import { useContext, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { applyAnnouncementEvent } from '../features/announcements/use-announcements';
import { SessionContext } from '../features/auth/session-context';
import { applyPaymentEvent } from '../features/billing/payment-events';
import { applyIntegrationEvent, applyPromptEvent } from '../features/bots/use-bots';
import { applyCampaignEvent } from '../features/campaigns/campaigns-live';
import { applyChatEvent } from '../features/chats/chats-cache';
import {
  applyContactListEvent,
  applyQueueEvent,
  applyQuickMessageEvent,
  applyTagEvent,
} from '../features/common/live-lists';
import { applySessionEvent, applyWhatsappEvent } from '../features/connections/connections-cache';
import {
  applyContactListItemEvent,
  applyContactListsEvent,
} from '../features/contact-lists/contact-lists-live';
import { applyFileListEvent } from '../features/files/use-file-lists';
import { applyKanbanTagEvent, applyKanbanTicketEvent } from '../features/kanban/kanban-cache';
import { applyScheduleEvent } from '../features/schedules/use-schedules';
import {
  applyContactViewEvent,
  applyTicketNoteEvent,
  applyTicketViewEvent,
  applyAppMessageEvent as applyViewMessageEvent,
} from '../features/ticket-view/messages-cache';
import { applyPresenceEvent } from '../features/ticket-view/presence-store';
import { showSlaToast } from '../features/tickets/sla-toast';
import {
  applyAppMessageEvent,
  applyContactEvent,
  applyTicketEvent,
  viewerOf,
} from '../features/tickets/tickets-cache';
import { applySessionUserEvent, applyUserEvent } from '../features/users/users-cache';
import { onSessionRefreshed } from '../lib/api';
import { reloadPage } from '../lib/browser';
import i18n from '../lib/i18n';
import { showToast } from '../lib/notify';
import { connectSocket, onCompanyChannel, updateSocketToken } from '../lib/socket';
import { clearSession, getToken } from '../lib/storage';

/** Connects the socket while `user` is signed in. */
export function useRealtime(user: SessionUser): void {
  const queryClient = useQueryClient();
  const companyId = user.companyId;
  const userId = user.id;
  // The ticket list merge needs the user's current queues without reconnecting when they change.
  const viewer = useRef(viewerOf(user));
  viewer.current = viewerOf(user);
  // The payment event moves the session company's due date (top bar) without reconnecting.
  const sessionValue = useContext(SessionContext);
  const session = useRef(sessionValue);
  session.current = sessionValue;
  // The service-level toast opens its ticket with the router of the moment.
  const navigateValue = useNavigate();
  const navigate = useRef(navigateValue);
  navigate.current = navigateValue;

  useEffect(() => {
    const token = getToken();
    if (!token) return;
    const socket = connectSocket(token);
    const timers: ReturnType<typeof setTimeout>[] = [];
    const reloadLater = () => {
      timers.push(setTimeout(() => reloadPage(), RELOAD_DELAY_MS));
    };

    const offAuth = onCompanyChannel(socket, companyId, 'auth', (payload) => {
      if (payload.action !== 'logout') return;
      if (payload.userId !== undefined && payload.userId !== userId) return;
      // A logout of this session (this tab or another) goes to /login without a warning.
      if (payload.reason !== 'logout') {
        const message =
          payload.reason === 'duplicate-login'
            ? i18n.t('auth.duplicateLogin')
            : payload.reason === 'subscription-expired'
              ? i18n.t('errors.ERR_SUBSCRIPTION_EXPIRED')
              : i18n.t('auth.sessionEnded');
        showToast('error', message, { toastId: 'session-logout', autoClose: TOAST_ERROR_MS });
      }
      timers.push(
        setTimeout(() => {
          clearSession();
          reloadPage();
        }, RELOAD_DELAY_MS),
      );
    });
    const offUser = onCompanyChannel(socket, companyId, 'user', (payload) => {
      applyUserEvent(queryClient, payload);
      applySessionUserEvent(session.current, payload);
    });
    const offWhatsapp = onCompanyChannel(socket, companyId, 'whatsapp', (payload) =>
      applyWhatsappEvent(queryClient, payload),
    );
    const offSession = onCompanyChannel(socket, companyId, 'whatsappSession', (payload) =>
      applySessionEvent(queryClient, payload),
    );
    const offTicket = onCompanyChannel(socket, companyId, 'ticket', (payload) =>
      applyTicketEvent(queryClient, payload, viewer.current),
    );
    const offAppMessage = onCompanyChannel(socket, companyId, 'appMessage', (payload) =>
      applyAppMessageEvent(queryClient, payload, viewer.current),
    );
    const offContact = onCompanyChannel(socket, companyId, 'contact', (payload) =>
      applyContactEvent(queryClient, payload),
    );
    // The open ticket view: its ticket, its message history and its contact.
    const offTicketView = onCompanyChannel(socket, companyId, 'ticket', (payload) =>
      applyTicketViewEvent(queryClient, payload),
    );
    const offMessagesView = onCompanyChannel(socket, companyId, 'appMessage', (payload) =>
      applyViewMessageEvent(queryClient, payload),
    );
    const offContactView = onCompanyChannel(socket, companyId, 'contact', (payload) =>
      applyContactViewEvent(queryClient, payload),
    );
    // Notes in the conversation, mentions of the user, and the customer's typing.
    const offNotes = onCompanyChannel(socket, companyId, 'ticketNote', (payload) =>
      applyTicketNoteEvent(queryClient, payload),
    );
    const offPresence = onCompanyChannel(socket, companyId, 'presence', applyPresenceEvent);
    // Lists live (document 2 section 4 "Lists").
    const offLists = [
      onCompanyChannel(socket, companyId, 'payment', (payload) =>
        applyPaymentEvent(queryClient, payload, session.current),
      ),
      onCompanyChannel(socket, companyId, 'tag', (payload) => applyTagEvent(queryClient, payload)),
      onCompanyChannel(socket, companyId, 'queue', (payload) => applyQueueEvent(queryClient, payload)),
      onCompanyChannel(socket, companyId, 'quickmessage', (payload) =>
        applyQuickMessageEvent(queryClient, payload),
      ),
      onCompanyChannel(socket, companyId, 'schedule', (payload) => applyScheduleEvent(queryClient, payload)),
      onCompanyChannel(socket, companyId, 'contact', (payload) =>
        applyContactListEvent(queryClient, payload),
      ),
      // Internal chat: sent only to the chat's participants.
      onCompanyChannel(socket, companyId, 'chat', (payload) => applyChatEvent(queryClient, payload)),
      onCompanyChannel(socket, companyId, 'ticket', (payload) =>
        applyKanbanTicketEvent(queryClient, payload),
      ),
      onCompanyChannel(socket, companyId, 'tag', () => applyKanbanTagEvent(queryClient)),
      onCompanyChannel(socket, companyId, 'announcement', (payload) =>
        applyAnnouncementEvent(queryClient, payload),
      ),
      // Prompts and queue integrations: their pages and the queue/connection pickers reload.
      onCompanyChannel(socket, companyId, 'prompt', () => applyPromptEvent(queryClient)),
      onCompanyChannel(socket, companyId, 'queueIntegration', () => applyIntegrationEvent(queryClient)),
      // File lists: the /files page reloads.
      onCompanyChannel(socket, companyId, 'file', () => applyFileListEvent(queryClient)),
      // Contact lists: lists, items and the import progress of the open list.
      onCompanyChannel(socket, companyId, 'ContactList', (payload) =>
        applyContactListsEvent(queryClient, payload),
      ),
      onCompanyChannel(socket, companyId, 'ContactListItem', (payload) =>
        applyContactListItemEvent(queryClient, payload),
      ),
      // Campaigns: the list, and the open report's totals and progress.
      onCompanyChannel(socket, companyId, 'campaign', (payload) => applyCampaignEvent(queryClient, payload)),
      // Service levels: sent only to the ticket's agent and the admins, so every event is for this user.
      onCompanyChannel(socket, companyId, 'sla', (payload) =>
        showSlaToast(payload, (path) => navigate.current(path)),
      ),
    ];
    socket.on('connect_error', (err: Error) => {
      if (err.message === 'ERR_SESSION_EXPIRED') reloadLater();
    });
    // Events sent while the socket was away (its node stopped, the network dropped) never arrive:
    // once it is back (on whichever node), every list and view on screen is read again.
    const onReconnect = () => void queryClient.invalidateQueries();
    socket.io.on('reconnect', onReconnect);
    // The connection opens once the first page is usable (lib/first-page.ts): what was read before it
    // joined its rooms may have missed an event, so the first connection reads it again too.
    const onFirstConnect = () =>
      void queryClient.invalidateQueries({ predicate: (query) => query.state.dataUpdatedAt > 0 });
    socket.once('connect', onFirstConnect);
    const offRefreshed = onSessionRefreshed((answer) => updateSocketToken(socket, answer.token));
    // The status heartbeat (core section 9): keeps the user marked online while the app is open.
    const heartbeat = setInterval(() => {
      if (socket.connected) socket.emit('userStatus');
    }, SOCKET_HEARTBEAT_MS);

    return () => {
      socket.io.off('reconnect', onReconnect);
      socket.off('connect', onFirstConnect);
      offAuth();
      offUser();
      offWhatsapp();
      offSession();
      offTicket();
      offAppMessage();
      offContact();
      offTicketView();
      offMessagesView();
      offContactView();
      offNotes();
      offPresence();
      for (const off of offLists) off();
      offRefreshed();
      clearInterval(heartbeat);
      for (const timer of timers) clearTimeout(timer);
      socket.disconnect();
    };
  }, [companyId, userId, queryClient]);
}

/**
 * Renders nothing and keeps `user`'s realtime connection open (useRealtime). The signed-in layout
 * loads it as a lazy chunk after the shell renders, so the socket.io client and the event handlers
 * of every feature's cache are not part of the first render's download.
 */
export function Realtime({ user }: { user: SessionUser }): null {
  useRealtime(user);
  return null;
}
