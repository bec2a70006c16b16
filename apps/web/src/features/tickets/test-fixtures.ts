/** Ticket and message factories for the tickets tests. */
import type { Message, Ticket } from '@zapdesk/shared';

let seq = 1000;

/** An open ticket of company 1 with a contact, updated now. */
export function createTicket(overrides: Partial<Ticket> = {}): Ticket {
  const id = ++seq;
  return {
    id,
    uuid: `uuid-${id}`,
    code: `20250101${id}`,
    status: 'open',
    userId: null,
    user: null,
    queueId: null,
    queue: null,
    whatsappId: 1,
    whatsapp: { id: 1, name: 'Main phone' },
    contactId: id,
    contact: {
      id,
      name: `Contact ${id}`,
      number: `55119999${id}`,
      email: '',
      profilePicUrl: null,
      isGroup: false,
    },
    companyId: 1,
    tags: [],
    isGroup: false,
    chatbot: false,
    unreadMessages: 0,
    lastMessage: 'Hello',
    useIntegration: false,
    promptId: null,
    integrationId: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    ...overrides,
  };
}

/** A text message. */
export function createMessage(overrides: Partial<Message> = {}): Message {
  const id = ++seq;
  return {
    id,
    ticketId: 1,
    contactId: null,
    body: `Message ${id}`,
    fromMe: false,
    mediaType: 'chat',
    mediaUrl: null,
    mediaName: null,
    isDeleted: false,
    isEdited: false,
    ack: 1,
    read: false,
    wid: null,
    quotedMsgId: null,
    quotedMsg: null,
    reactionToId: null,
    contact: null,
    userId: null,
    error: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    ...overrides,
  };
}
