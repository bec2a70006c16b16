import AddIcon from '@mui/icons-material/Add';
import CheckBoxIcon from '@mui/icons-material/CheckBox';
import MoveToInboxIcon from '@mui/icons-material/MoveToInbox';
import SearchIcon from '@mui/icons-material/Search';
import { Badge, Box, Button, Paper, Stack } from '@mui/material';
import { can, SEARCH_DEBOUNCE_MS, type TicketSort } from '@zapdesk/shared';
import { type ChangeEvent, lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useCurrentUser } from '../auth/session-context';
import { PlainTabs } from './plain-tabs';
import { QueueFilter, useQueueFilterOptions, useSelectedQueues } from './queue-filter';
import { ShowAllSwitch } from './show-all-switch';
import { TicketList } from './ticket-list';
import type { TicketListParams } from './tickets-cache';
import { useTagOptions, useTicketsList, useUserOptions } from './use-tickets';

/** The search tab's tag and user filters (MUI Autocomplete), loaded when that tab first opens. */
const SearchFilters = lazy(() => import('./search-filters').then((m) => ({ default: m.SearchFilters })));

/** The search tab's text box (MUI TextField), loaded with that tab; it takes the focus when shown. */
const SearchBox = lazy(() => import('./search-box').then((m) => ({ default: m.SearchBox })));

/** The new-ticket modal (its form and zod) loads when it is first opened. */
const NewTicketModal = lazy(() => import('./new-ticket-modal').then((m) => ({ default: m.NewTicketModal })));

export type ManagerTab = 'open' | 'closed' | 'search';
type OpenSubTab = 'open' | 'pending';

/** A count badge beside a sub-tab label. */
function CountLabel({ label, count, testId }: { label: string; count: number; testId: string }) {
  return (
    <Badge
      badgeContent={count}
      max={9999}
      color="secondary"
      showZero={false}
      slotProps={{ badge: { 'data-testid': testId, 'data-count': count } as object }}
      sx={{ '& .MuiBadge-badge': { right: -14 } }}
    >
      <span>{label}</span>
    </Badge>
  );
}

/**
 * The tickets manager (core section 2): tabs open (sub-tabs 'assigned' and 'pending' with count
 * badges), closed and search; new ticket button; 'show all' switch for permitted roles; queue
 * multi-select. The search box lowercases its text and applies it after 500 ms; clearing it returns
 * to the open tab. The search tab adds a tags filter and, for admins, a users filter.
 */
export function TicketsManager({ selectedUuid }: { selectedUuid?: string }) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const canShowAll = can(me.profile, 'tickets-manager:showall');
  const canFilterUsers = can(me.profile, 'ticket-search:usersFilter');
  const [tab, setTab] = useState<ManagerTab>('open');
  const [subTab, setSubTab] = useState<OpenSubTab>('open');
  const [showAll, setShowAll] = useState(false);
  const [sortBy, setSortBy] = useState<TicketSort>('updatedAt');
  const [newTicket, setNewTicket] = useState(false);
  const queueOptions = useQueueFilterOptions(me);
  const [selectedQueues, setSelectedQueues] = useSelectedQueues(me);
  const [searchText, setSearchText] = useState('');
  const searchParam = useDebouncedValue(searchText.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [userIds, setUserIds] = useState<number[]>([]);
  const tags = useTagOptions(tab === 'search');
  const users = useUserOptions(tab === 'search' && canFilterUsers);

  const queueIds = useMemo(
    () => selectedQueues.filter((id) => queueOptions.some((q) => q.id === id)),
    [selectedQueues, queueOptions],
  );
  const base: TicketListParams = { queueIds, showAll: canShowAll && showAll };
  // The order applies to the open tab's lists (closed tickets have no due times; a search keeps its own).
  const openParams: TicketListParams = { ...base, status: 'open', sortBy };
  const pendingParams: TicketListParams = { ...base, status: 'pending', sortBy };
  const closedParams: TicketListParams = { ...base, status: 'closed' };
  // The search tab looks through every ticket its user may open: for admins that is all of them
  // (core section 6), otherwise the users filter could only find the admin's own tickets.
  const searchParams: TicketListParams = {
    ...base,
    showAll: canShowAll,
    searchParam,
    tags: tagIds,
    users: canFilterUsers ? userIds : [],
  };

  const openCount = useTicketsList(openParams).data?.pages[0]?.count ?? 0;
  const pendingCount = useTicketsList(pendingParams).data?.pages[0]?.count ?? 0;

  const onSearchChange = (value: string) => {
    setSearchText(value);
    if (value === '') setTab('open');
  };

  return (
    <Paper
      variant="outlined"
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, overflow: 'hidden' }}
      data-testid="tickets-manager"
    >
      <PlainTabs
        value={tab}
        onChange={setTab}
        sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 56 }}
        tabSx={{ minHeight: 56 }}
        tabs={[
          {
            value: 'open',
            icon: <MoveToInboxIcon fontSize="small" />,
            label: t('tickets.tabs.open'),
            testId: 'tickets-tab-open',
          },
          {
            value: 'closed',
            icon: <CheckBoxIcon fontSize="small" />,
            label: t('tickets.tabs.closed'),
            testId: 'tickets-tab-closed',
          },
          {
            value: 'search',
            icon: <SearchIcon fontSize="small" />,
            label: t('tickets.tabs.search'),
            testId: 'tickets-tab-search',
          },
        ]}
      />

      <Stack
        direction="row"
        spacing={1}
        alignItems="center"
        useFlexGap
        flexWrap="wrap"
        sx={{ p: 1, borderBottom: 1, borderColor: 'divider' }}
      >
        {tab === 'search' ? (
          <Suspense fallback={<Box sx={{ flex: 1, minWidth: 160, height: 40 }} />}>
            <SearchBox value={searchText} onChange={onSearchChange} />
          </Suspense>
        ) : (
          <>
            <Button
              variant="outlined"
              size="small"
              startIcon={<AddIcon />}
              onClick={() => setNewTicket(true)}
              data-testid="new-ticket-button"
            >
              {t('tickets.manager.newTicket')}
            </Button>
            {canShowAll && (
              <ShowAllSwitch label={t('tickets.manager.showAll')} checked={showAll} onChange={setShowAll} />
            )}
            {tab === 'open' && (
              <Box
                component="select"
                aria-label={t('tickets.manager.sort.label')}
                value={sortBy}
                onChange={(event: ChangeEvent<HTMLSelectElement>) =>
                  setSortBy(event.target.value as TicketSort)
                }
                data-testid="tickets-sort"
                sx={{
                  font: 'inherit',
                  fontSize: '0.875rem',
                  height: 32,
                  px: 1,
                  borderRadius: 1,
                  border: 1,
                  borderColor: 'divider',
                  bgcolor: 'background.paper',
                  color: 'text.primary',
                }}
              >
                <option value="updatedAt">{t('tickets.manager.sort.updatedAt')}</option>
                <option value="due">{t('tickets.manager.sort.due')}</option>
              </Box>
            )}
            <Box sx={{ flex: 1 }} />
          </>
        )}
        <QueueFilter options={queueOptions} value={queueIds} onChange={setSelectedQueues} />
      </Stack>

      {tab === 'open' && (
        <>
          <PlainTabs
            value={subTab}
            onChange={setSubTab}
            sx={{ borderBottom: 1, borderColor: 'divider' }}
            tabs={(
              [
                { value: 'open', name: 'assigned', label: t('tickets.tabs.assigned'), count: openCount },
                { value: 'pending', name: 'pending', label: t('tickets.tabs.pending'), count: pendingCount },
              ] as const
            ).map(({ value, name, label, count }) => ({
              value,
              testId: `tickets-subtab-${name}`,
              label: <CountLabel label={label} count={count} testId={`tickets-count-${name}`} />,
            }))}
          />
          <TicketList params={subTab === 'open' ? openParams : pendingParams} selectedUuid={selectedUuid} />
        </>
      )}
      {tab === 'closed' && <TicketList params={closedParams} selectedUuid={selectedUuid} />}
      {tab === 'search' && (
        <>
          <Suspense fallback={null}>
            <SearchFilters
              tags={tags.data ?? []}
              tagIds={tagIds}
              onTagIds={setTagIds}
              users={canFilterUsers ? (users.data ?? []) : null}
              userIds={userIds}
              onUserIds={setUserIds}
            />
          </Suspense>
          <TicketList params={searchParams} selectedUuid={selectedUuid} />
        </>
      )}
      {newTicket && (
        <Suspense fallback={null}>
          <NewTicketModal onClose={() => setNewTicket(false)} />
        </Suspense>
      )}
    </Paper>
  );
}
