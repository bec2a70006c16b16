/**
 * Socket channel names and payloads (core document sections 4 and 7). The server emits on
 * `company-{id}-<name>`; the client listens on the same names.
 */

import type { Prompt, QueueIntegration } from './schemas/bots.js';
import type { CampaignEvent } from './schemas/campaigns.js';
import type { Chat, ChatMessage } from './schemas/chats.js';
import type { ContactListEntry, ContactListImport, ContactListWithCount } from './schemas/contact-lists.js';
import type { FileListRecord } from './schemas/files.js';
import type { PresenceState } from './schemas/messages.js';
import type { Announcement } from './schemas/notices.js';
import type { Schedule } from './schemas/schedules.js';
import type { NoteMention, QuickMessage, Tag, TicketNote } from './schemas/tickets.js';
import type { PublicUser } from './schemas/users.js';

export const CHANNELS = [
  'ticket',
  'appMessage',
  'contact',
  'user',
  'auth',
  'whatsapp',
  'whatsappSession',
  'chat',
  'announcement',
  'payment',
  'settings',
  'queue',
  'quickmessage',
  'tag',
  'prompt',
  'queueIntegration',
  'schedule',
  'file',
  'ContactList',
  'ContactListItem',
  'campaign',
  'sla',
  'ticketNote',
  'presence',
] as const;
export type ChannelName = (typeof CHANNELS)[number];

/** `company-{companyId}-{name}` */
export function companyChannel(companyId: number, name: ChannelName): string {
  return `company-${companyId}-${name}`;
}

/** Rooms a socket joins: its company and its own user. */
export const companyRoom = (companyId: number) => `company-${companyId}`;
export const userRoom = (companyId: number, userId: number) => `company-${companyId}-user-${userId}`;

export interface ChannelPayloads {
  user: { action: 'update' | 'create'; user: PublicUser } | { action: 'delete'; userId: number };
  /**
   * Sent to the sockets of a session that ended (then disconnected): a new sign-in, a password or
   * role change, deletion, logout, or a refresh-token reuse that revoked the session.
   */
  auth: {
    action: 'logout';
    reason:
      | 'duplicate-login'
      | 'password-changed'
      | 'role-changed'
      | 'deleted'
      | 'logout'
      | 'revoked'
      | 'subscription-expired';
    userId: number;
  };
  settings: { action: 'update'; setting: { key: string; value: string } };
  queue: { action: 'update' | 'create'; queue: unknown } | { action: 'delete'; queueId: number };
  /** Lists live (document 2 section 4 "Lists"): create, update and delete of each record. */
  quickmessage: { action: 'create' | 'update'; record: QuickMessage } | { action: 'delete'; id: number };
  tag: { action: 'create' | 'update'; tag: Tag } | { action: 'delete'; tagId: number };
  /** Prompts and queue integrations (document 2 section 4): the list pages stay live. */
  prompt: { action: 'create' | 'update'; prompt: Prompt } | { action: 'delete'; promptId: number };
  queueIntegration:
    | { action: 'create' | 'update'; queueIntegration: QueueIntegration }
    | { action: 'delete'; integrationId: number };
  /** Schedules: the calendar stays live as schedules are saved, sent or deleted. */
  schedule: { action: 'create' | 'update'; schedule: Schedule } | { action: 'delete'; scheduleId: number };
  /** File lists (document 2 section 7): the /files page stays live. */
  file: { action: 'create' | 'update'; fileList: FileListRecord } | { action: 'delete'; fileListId: number };
  /**
   * Contact lists (document 2 section 7): create/update/delete of lists; `import` carries a sheet
   * import's progress and, when done, its error bag.
   */
  ContactList:
    | { action: 'create' | 'update'; record: ContactListWithCount }
    | { action: 'delete'; id: number }
    | { action: 'import'; import: ContactListImport };
  /** Contact list items: create/update/delete; `reload` after an import or a validity check. */
  ContactListItem:
    | { action: 'create' | 'update'; record: ContactListEntry }
    | { action: 'delete'; id: number }
    | { action: 'reload'; contactListId: number };
  /** Campaigns: list changes and the report's live progress. */
  campaign: CampaignEvent;
  ticket: { action: string; [k: string]: unknown };
  appMessage: { action: string; [k: string]: unknown };
  contact: { action: string; [k: string]: unknown };
  whatsapp: { action: string; [k: string]: unknown };
  whatsappSession: { action: string; [k: string]: unknown };
  /**
   * Internal chat (document 2 section 7), sent only to the chat's participants: `create` and
   * `update` carry the chat, `delete` its id (also to users removed from it), `new-message` the
   * message and the chat with its new unread counts.
   */
  chat:
    | { action: 'create' | 'update'; record: Chat }
    | { action: 'delete'; id: number }
    | { action: 'new-message'; newMessage: ChatMessage; chat: Chat };
  /**
   * Platform-wide: emitted on every company's channel. Active announcements come as create/update
   * with the record; inactive or deleted ones as delete with the id.
   */
  announcement: { action: 'create' | 'update'; record: Announcement } | { action: 'delete'; id: number };
  payment: { action: string; [k: string]: unknown };
  /**
   * Service levels (docs/reports.md): a ticket's due time is near (`warning`) or has passed
   * (`breach`); sent to the ticket's agent and to the company's admins.
   */
  sla: {
    action: 'warning' | 'breach';
    ticketId: number;
    ticketUuid: string;
    contactName: string;
    target: 'first_response' | 'resolution';
    dueAt: string;
  };
  /**
   * Ticket notes (docs/inbox.md "Notes and mentions"): `create` and `delete` to those who can see
   * the ticket; `mention` only to the mentioned user.
   */
  ticketNote:
    | { action: 'create'; note: TicketNote }
    | { action: 'delete'; noteId: number; ticketId: number }
    | { action: 'mention'; mention: NoteMention };
  /** The customer's typing or recording on a ticket, to those who can see it (`paused`: stopped). */
  presence: { action: 'update'; ticketId: number; contactId: number; presence: PresenceState };
}
