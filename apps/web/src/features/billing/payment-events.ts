/**
 * `company-{id}-payment` (document 3 section 4): the realtime hook hands each event here; the
 * checkout dialog listens for CONCLUIDA to show the renewed due date.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { PaymentEvent, SessionUser } from '@zapdesk/shared';

type Listener = (event: PaymentEvent) => void;
const listeners = new Set<Listener>();

/** Subscribes to payment events; returns the unsubscribe function. */
export function onPaymentEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/**
 * Applies a payment event: refreshes the billing queries, moves the session company's due date
 * (the top bar) and tells the listeners.
 */
export function applyPaymentEvent(
  queryClient: QueryClient,
  payload: { action: string; [k: string]: unknown },
  session: { user: SessionUser | null; setUser: (user: SessionUser) => void } | null,
): void {
  if (payload.action !== 'CONCLUIDA') return;
  const event = payload as unknown as PaymentEvent;
  void queryClient.invalidateQueries({ queryKey: ['billing'] });
  const user = session?.user;
  if (user && event.company?.id === user.companyId) {
    session.setUser({ ...user, company: { ...user.company, dueDate: event.company.dueDate } });
  }
  for (const listener of listeners) listener(event);
}
