import { Box, CircularProgress, Typography } from '@mui/material';
import type { Ticket } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { VirtualList } from '../common/virtual-list';
import { TicketListItem } from './ticket-list-item';
import type { TicketListParams } from './tickets-cache';
import { useTicketStepKeys } from './use-ticket-step-keys';
import { useFlatTickets, useTicketsList } from './use-tickets';

/** A ticket row's height (px) until it is measured: avatar, three lines and the action buttons. */
const TICKET_ROW_ESTIMATE_PX = 120;

/** The key of a ticket row. */
const ticketKey = (ticket: Ticket) => ticket.id;

/** The spinner under the list while the next page loads. */
function Footer({ loading }: { loading: boolean }) {
  if (!loading) return null;
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', p: 1 }}>
      <CircularProgress size={20} />
    </Box>
  );
}

interface TicketListProps {
  params: TicketListParams;
  selectedUuid?: string;
  testId?: string;
}

/**
 * A virtualised ticket list (rows of varying height, one rendered below the bottom of the box): the
 * next page loads when the end comes within 100 px of the bottom while `hasMore`; loading and empty
 * states. Alt+ArrowDown / Alt+ArrowUp open the next / previous ticket.
 */
export function TicketList({ params, selectedUuid, testId = 'tickets-list' }: TicketListProps) {
  const { t } = useTranslation();
  const list = useTicketsList(params);
  const tickets = useFlatTickets(list.data);
  useTicketStepKeys(tickets, selectedUuid);

  return (
    <Box sx={{ flex: 1, minHeight: 0, position: 'relative' }} data-testid={testId}>
      {list.isPending ? (
        <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }} data-testid="tickets-loading">
          <CircularProgress size={28} />
        </Box>
      ) : tickets.length === 0 ? (
        <Box sx={{ p: 3, textAlign: 'center' }} data-testid="tickets-empty">
          <Typography variant="subtitle2">{t('tickets.list.emptyTitle')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('tickets.list.emptyText')}
          </Typography>
        </Box>
      ) : (
        <VirtualList
          items={tickets}
          itemKey={ticketKey}
          estimatePx={TICKET_ROW_ESTIMATE_PX}
          pages={list}
          render={(ticket) => <TicketListItem ticket={ticket} selected={ticket.uuid === selectedUuid} />}
          footer={<Footer loading={list.isFetchingNextPage} />}
        />
      )}
    </Box>
  );
}
