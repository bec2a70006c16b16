import { Box, CircularProgress, Typography } from '@mui/material';
import { LIST_LOAD_THRESHOLD_PX } from '@zapdesk/shared';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtuoso } from 'react-virtuoso';
import { TicketListItem } from './ticket-list-item';
import type { TicketListParams } from './tickets-cache';
import { useTicketStepKeys } from './use-ticket-step-keys';
import { useFlatTickets, useTicketsList } from './use-tickets';

/** The spinner under the list while the next page loads. */
function Footer({ context }: { context?: { loading: boolean } }) {
  if (!context?.loading) return null;
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
 * A virtualised ticket list (react-virtuoso): the next page loads when the end comes within 100 px
 * while `hasMore`; loading and empty states. Alt+ArrowDown / Alt+ArrowUp open the next / previous
 * ticket.
 */
export function TicketList({ params, selectedUuid, testId = 'tickets-list' }: TicketListProps) {
  const { t } = useTranslation();
  const list = useTicketsList(params);
  const tickets = useFlatTickets(list.data);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useTicketStepKeys(tickets, selectedUuid);

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

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
        <Virtuoso
          style={{ height: '100%' }}
          data={tickets}
          computeItemKey={(_index, ticket) => ticket.id}
          endReached={loadMore}
          increaseViewportBy={{ top: 0, bottom: LIST_LOAD_THRESHOLD_PX }}
          itemContent={(_index, ticket) => (
            <TicketListItem ticket={ticket} selected={ticket.uuid === selectedUuid} />
          )}
          context={{ loading: isFetchingNextPage }}
          components={{ Footer }}
        />
      )}
    </Box>
  );
}
