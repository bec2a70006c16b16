import ForumIcon from '@mui/icons-material/Forum';
import { Box, CircularProgress, Paper, Stack, Typography, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { Component, type ErrorInfo, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PlainTabs } from './plain-tabs';
import { setOpenTicketUuid } from './tickets-cache';
import { TicketsManager } from './tickets-manager';

/**
 * The open ticket's view (messages, composer, media, its dialogs): a chunk of its own, so /tickets
 * shows the list without it; fetched when a ticket opens, or as soon as the pointer, the keyboard
 * focus or a touch reaches the tickets manager (before the click that opens a ticket).
 */
const loadTicketView = () => import('../ticket-view/ticket-view');
const TicketView = lazy(() => loadTicketView().then((m) => ({ default: m.TicketView })));
/** Starts fetching the ticket view's code (once; a failed fetch is retried when the ticket opens). */
const prefetchTicketView = () => void loadTicketView().catch(() => {});
/** Where a coming ticket click shows first. */
const prefetchOn = {
  onPointerEnter: prefetchTicketView,
  onFocus: prefetchTicketView,
  onTouchStart: prefetchTicketView,
};

/** Keeps the tickets manager alive when the open ticket's view fails to render. */
class TicketViewBoundary extends Component<
  { children: ReactNode; fallback: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** The product mark shown where the open ticket goes when none is chosen. */
function LogoPlaceholder() {
  const { t } = useTranslation();
  return (
    <Stack
      alignItems="center"
      justifyContent="center"
      spacing={1}
      sx={{ height: '100%', minHeight: 240, color: 'text.secondary' }}
      data-testid="ticket-placeholder"
    >
      <ForumIcon sx={{ fontSize: 72, color: 'primary.main', opacity: 0.6 }} />
      <Typography variant="h5" color="primary" fontWeight={700}>
        Zapdesk
      </Typography>
      <Typography variant="body2">{t('tickets.page.selectTicket')}</Typography>
    </Stack>
  );
}

/** The open ticket (isolated by an error boundary), or the placeholder. */
function OpenTicket({ uuid }: { uuid?: string }) {
  const { t } = useTranslation();
  if (!uuid) return <LogoPlaceholder />;
  return (
    <TicketViewBoundary
      key={uuid}
      fallback={
        <Box sx={{ p: 3 }} data-testid="ticket-view-error">
          <Typography color="text.secondary">{t('tickets.page.viewError')}</Typography>
        </Box>
      }
    >
      <Suspense
        fallback={
          <Stack alignItems="center" justifyContent="center" sx={{ height: '100%' }}>
            <CircularProgress aria-label="loading" />
          </Stack>
        }
      >
        <TicketView uuid={uuid} />
      </Suspense>
    </TicketViewBoundary>
  );
}

/**
 * /tickets and /tickets/:uuid (core section 2 "Chat screen"): on wide screens the tickets manager
 * takes one third beside the open ticket (two thirds) or a logo placeholder; under 600 px two tabs,
 * the ticket and the attendance list.
 */
export function TicketsPage() {
  const { t } = useTranslation();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const { uuid } = useParams<{ uuid?: string }>();
  const [mobileTab, setMobileTab] = useState<'ticket' | 'list'>(uuid ? 'ticket' : 'list');

  useEffect(() => {
    setOpenTicketUuid(uuid ?? null);
    if (uuid) setMobileTab('ticket');
    return () => setOpenTicketUuid(null);
  }, [uuid]);

  const height = { xs: 'calc(100dvh - 72px)', sm: 'calc(100dvh - 96px)' };

  if (narrow) {
    return (
      <Stack sx={{ height }} data-testid="tickets-page">
        <PlainTabs
          value={mobileTab}
          onChange={setMobileTab}
          tabs={[
            { value: 'ticket', label: t('tickets.page.ticketTab'), testId: 'tickets-mobile-tab-ticket' },
            { value: 'list', label: t('tickets.page.listTab'), testId: 'tickets-mobile-tab-list' },
          ]}
        />
        <Box sx={{ flex: 1, minHeight: 0, display: mobileTab === 'list' ? 'block' : 'none' }} {...prefetchOn}>
          <TicketsManager selectedUuid={uuid} />
        </Box>
        {mobileTab === 'ticket' && (
          <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, overflow: 'hidden' }}>
            <OpenTicket uuid={uuid} />
          </Paper>
        )}
      </Stack>
    );
  }

  return (
    <Stack direction="row" spacing={1} sx={{ height }} data-testid="tickets-page">
      <Box sx={{ width: '33.333%', minWidth: 300, minHeight: 0 }} {...prefetchOn}>
        <TicketsManager selectedUuid={uuid} />
      </Box>
      <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, minHeight: 0, overflow: 'hidden' }}>
        <OpenTicket uuid={uuid} />
      </Paper>
    </Stack>
  );
}
