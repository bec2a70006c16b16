/**
 * The open ticket (core section 2 "Chat screen (ticket view)"): loads GET /tickets/u/:uuid and shows
 * the header, the tags editor, the message list, the composer and the contact drawer. A ticket outside
 * the user's visibility (403 ERR_NO_PERMISSION) shows 'Acesso não permitido' and goes back to
 * /tickets, as does an unknown one (404, or 400 for an address that is not a uuid, such as
 * /tickets/not-a-uuid) and a delete event for this ticket.
 */
import { Box, CircularProgress, Stack, useMediaQuery, useTheme } from '@mui/material';
import type { Message } from '@zapdesk/shared';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { ApiError } from '../../lib/api';
import { notifyError } from '../../lib/notify';
import { CloudWindowBar } from '../cloud/cloud-window-bar';
import { useReportViewing } from '../push/use-report-viewing';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { onTicketDeleted } from './messages-cache';
import { TagsEditor } from './tags-editor';
import { TicketHeader } from './ticket-header';
import { useReadWhileOpen } from './use-read-while-open';
import { useTicket } from './use-ticket-view';

/** The contact drawer (its forms and zod) loads when it is first opened. */
const ContactDrawer = lazy(() => import('./contact-drawer').then((m) => ({ default: m.ContactDrawer })));

export function TicketView({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const query = useTicket(uuid);
  const ticket = query.data;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [replyTo, setReplyTo] = useState<Message | null>(null);

  useEffect(() => {
    const err = query.error;
    if (!err) return;
    if (err instanceof ApiError && (err.code === 'ERR_NO_PERMISSION' || err.status === 403)) {
      toast.error(t('pages.noPermission'), { toastId: 'ticket-no-permission', autoClose: 2000 });
      navigate('/tickets', { replace: true });
    } else if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
      toast.error(t('errors.ERR_NO_TICKET_FOUND'), { toastId: 'ticket-not-found', autoClose: 2000 });
      navigate('/tickets', { replace: true });
    } else notifyError(err);
  }, [query.error, navigate, t]);

  const ticketId = ticket?.id;
  useReadWhileOpen(ticketId);
  useReportViewing(ticketId);
  useEffect(() => {
    if (ticketId === undefined) return;
    return onTicketDeleted((id) => {
      if (id === ticketId) navigate('/tickets', { replace: true });
    });
  }, [ticketId, navigate]);

  // Reply mode belongs to one ticket.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the ticket changes
  useEffect(() => setReplyTo(null), [uuid]);

  if (!ticket) {
    return (
      <Box
        data-testid="ticket-view"
        sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      >
        {query.isPending && <CircularProgress />}
      </Box>
    );
  }

  const drawer = drawerOpen && (
    <Suspense fallback={null}>
      <ContactDrawer ticket={ticket} onClose={() => setDrawerOpen(false)} />
    </Suspense>
  );
  return (
    <Stack
      direction="row"
      data-testid="ticket-view"
      data-ticket-id={ticket.id}
      sx={{ height: '100%', minHeight: 0 }}
    >
      <Stack sx={{ flex: 1, minWidth: 0, minHeight: 0, display: narrow && drawerOpen ? 'none' : 'flex' }}>
        <TicketHeader ticket={ticket} onToggleDrawer={() => setDrawerOpen((open) => !open)} />
        <TagsEditor ticket={ticket} />
        <MessageList ticket={ticket} onReply={setReplyTo} />
        <CloudWindowBar ticket={ticket} />
        <Composer ticket={ticket} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />
      </Stack>
      {drawer}
    </Stack>
  );
}
