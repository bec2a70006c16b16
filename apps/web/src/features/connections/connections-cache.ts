/**
 * Connections in the TanStack Query cache: query keys and the realtime update of
 * `company-{id}-whatsapp` (`update` replaces or inserts, `delete` removes) and
 * `company-{id}-whatsappSession` (`update` merges the session's status, qrcode, retries and
 * updatedAt) events (document 2 section 4).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ChannelPayloads, ConnectionState, Whatsapp } from '@zapdesk/shared';

export const connectionsKeys = {
  all: ['whatsapp'] as const,
  list: () => ['whatsapp', 'list'] as const,
  detail: (id: number) => ['whatsapp', 'detail', id] as const,
  /** The users modal's default-connection options (same endpoint, kept by the users feature). */
  options: () => ['whatsapp', 'options'] as const,
};

/** States that put the warning badge on the /connections menu link (core section 2). */
export const WARNING_STATES: readonly ConnectionState[] = [
  'qrcode',
  'PAIRING',
  'DISCONNECTED',
  'TIMEOUT',
  'OPENING',
];

/** True when any connection is in a warning state. */
export function hasConnectionWarning(connections: readonly Whatsapp[] | undefined): boolean {
  return (connections ?? []).some((c) => WARNING_STATES.includes(c.status));
}

const byName = (a: Whatsapp, b: Whatsapp) => a.name.localeCompare(b.name);

/** Replaces `whatsapp` in the list (merging its fields), or inserts it in name order. */
export function upsertConnection(
  list: Whatsapp[] | undefined,
  whatsapp: Partial<Whatsapp> & { id: number },
): Whatsapp[] | undefined {
  if (!list) return list;
  if (list.some((c) => c.id === whatsapp.id))
    return list.map((c) => (c.id === whatsapp.id ? { ...c, ...whatsapp } : c));
  if (!isWhatsapp(whatsapp)) return list;
  return [...list, whatsapp].sort(byName);
}

/** Removes the connection `id` from the list. */
export function removeConnection(list: Whatsapp[] | undefined, id: number): Whatsapp[] | undefined {
  return list?.filter((c) => c.id !== id);
}

function isWhatsapp(value: unknown): value is Whatsapp {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'number' && typeof v.name === 'string' && typeof v.status === 'string';
}

function hasId(value: unknown): value is Partial<Whatsapp> & { id: number } {
  return !!value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number';
}

/** Writes one connection (or partial session fields) into the list and its detail. */
function applyConnection(queryClient: QueryClient, whatsapp: Partial<Whatsapp> & { id: number }): void {
  queryClient.setQueryData<Whatsapp[]>(connectionsKeys.list(), (d) => upsertConnection(d, whatsapp));
  queryClient.setQueryData<Whatsapp>(connectionsKeys.detail(whatsapp.id), (d) => {
    if (d) return { ...d, ...whatsapp };
    return isWhatsapp(whatsapp) ? whatsapp : d;
  });
}

/** Applies one `company-{id}-whatsapp` event (`update` with `whatsapp`, `delete` with `whatsappId`). */
export function applyWhatsappEvent(queryClient: QueryClient, payload: ChannelPayloads['whatsapp']): void {
  if (payload.action === 'delete') {
    const id = Number(payload.whatsappId);
    if (!Number.isFinite(id)) return;
    queryClient.setQueryData<Whatsapp[]>(connectionsKeys.list(), (d) => removeConnection(d, id));
    queryClient.removeQueries({ queryKey: connectionsKeys.detail(id) });
    void queryClient.invalidateQueries({ queryKey: connectionsKeys.options(), refetchType: 'none' });
    return;
  }
  if (payload.action !== 'update' && payload.action !== 'create') return;
  if (!hasId(payload.whatsapp)) return;
  applyConnection(queryClient, payload.whatsapp);
  void queryClient.invalidateQueries({ queryKey: connectionsKeys.options(), refetchType: 'none' });
}

/** Applies one `company-{id}-whatsappSession` event (`update` with `session`: the connection). */
export function applySessionEvent(
  queryClient: QueryClient,
  payload: ChannelPayloads['whatsappSession'],
): void {
  if (payload.action !== 'update' || !hasId(payload.session)) return;
  applyConnection(queryClient, payload.session);
}
