import { type Prompt, type PublicUser, type QueueIntegration, USER_BILLING_FIELDS } from '@zapdesk/shared';
import { type AuthContext, isAdmin } from './guards.js';

/**
 * Who receives a record that holds a secret: `admin` (a company admin or a super user, who may
 * manage it) gets it whole; `member` (every other user) gets it redacted. REST answers and socket
 * events both go through the views below, so a secret reaches the same people on either path
 * (docs/security.md, "Secrets and tokens").
 */
export type Viewer = 'admin' | 'member';

/** The viewer class of a signed-in caller. */
export function viewerOf(auth: AuthContext): Viewer {
  return isAdmin(auth) ? 'admin' : 'member';
}

/** A connection as `viewer` may see it: members get `token: null` (the external API's bearer). */
export function whatsappView<T extends { token: string | null }>(viewer: Viewer, whatsapp: T): T {
  return viewer === 'admin' ? whatsapp : { ...whatsapp, token: null };
}

/** A queue integration as `viewer` may see it: members get `secret: ''` (its signing secret). */
export function queueIntegrationView(viewer: Viewer, integration: QueueIntegration): QueueIntegration {
  return viewer === 'admin' ? integration : { ...integration, secret: '' };
}

/**
 * A prompt as `viewer` may see it: admins get the masked key (first 3 and last 4 characters),
 * members `apiKey: ''`.
 */
export function promptView(viewer: Viewer, prompt: Prompt): Prompt {
  return viewer === 'admin' ? prompt : { ...prompt, apiKey: '' };
}

/**
 * A user as `viewer` may see it: the billing fields (document 3: phone, cnpjCpf, address, city,
 * state, zipcode, country) go whole to admins and to the user itself (`selfId`); other members get
 * them ''. The socket events have no single reader: their member shape has them '' for everybody.
 */
export function userView<T extends PublicUser>(viewer: Viewer, user: T, selfId?: number): T {
  if (viewer === 'admin' || user.id === selfId) return user;
  const hidden = { ...user };
  for (const field of USER_BILLING_FIELDS) hidden[field] = '';
  return hidden;
}
