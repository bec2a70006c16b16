import {
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { Box, Card, CardActionArea, Chip, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import type { KanbanTicket, Tag } from '@zapdesk/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { WhatsAppText } from '../../lib/whatsapp-text';
import { useCurrentUser } from '../auth/session-context';
import { NoPermission } from '../common/no-permission';
import { usePlanGateRedirect } from '../common/plan-gate';
import { VirtualList } from '../common/virtual-list';
import { groupByLane, type LaneId, laneOf, OPEN_LANE } from './kanban-cache';
import { useKanbanLanes, useKanbanTickets, useMoveCard } from './use-kanban';

const LANE_WIDTH = 300;
/** A card's height (px, with the space under it) until it is measured. */
const CARD_ESTIMATE_PX = 100;

/** The key of a card. */
const cardKey = (ticket: KanbanTicket) => ticket.id;

/** The body of a card: contact name, number and last message. */
function CardBody({ ticket }: { ticket: KanbanTicket }) {
  return (
    <Box sx={{ p: 1.5 }}>
      <Typography variant="subtitle2" noWrap>
        {ticket.contact.name}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div" noWrap>
        {ticket.contact.number}
      </Typography>
      <Typography variant="body2" noWrap sx={{ mt: 0.5 }}>
        <WhatsAppText text={ticket.lastMessage} inline />
      </Typography>
    </Box>
  );
}

/** A draggable card; a click (without a drag) opens /tickets/{uuid}. */
function KanbanCard({ ticket }: { ticket: KanbanTicket }) {
  const navigate = useNavigate();
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: ticket.id, data: { ticket } });
  return (
    <Box sx={{ pb: 1 }}>
      <Card
        ref={setNodeRef}
        variant="outlined"
        data-testid={`kanban-card-${ticket.id}`}
        sx={{ opacity: isDragging ? 0.4 : 1, touchAction: 'none' }}
        {...attributes}
        {...listeners}
      >
        <CardActionArea onClick={() => navigate(`/tickets/${ticket.uuid}`)}>
          <CardBody ticket={ticket} />
        </CardActionArea>
      </Card>
    </Box>
  );
}

/** A lane: its title and count over a virtualised column of cards, and a drop target. */
function Lane({
  id,
  title,
  color,
  cards,
}: {
  id: LaneId;
  title: string;
  color?: string;
  cards: KanbanTicket[];
}) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: `lane-${id}`, data: { lane: id } });
  return (
    <Paper
      ref={setNodeRef}
      variant="outlined"
      data-testid={`kanban-lane-${id}`}
      sx={{
        width: LANE_WIDTH,
        flex: `0 0 ${LANE_WIDTH}px`,
        display: 'flex',
        flexDirection: 'column',
        bgcolor: isOver ? 'action.hover' : 'background.default',
      }}
    >
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ p: 1.5 }}>
        {color ? (
          <Chip label={title} size="small" sx={{ bgcolor: color, color: '#fff' }} />
        ) : (
          <Typography variant="subtitle1">{title}</Typography>
        )}
        <Typography variant="caption" color="text.secondary" data-testid={`kanban-lane-count-${id}`}>
          {t('kanban.count', { count: cards.length })}
        </Typography>
      </Stack>
      <Box sx={{ flex: 1, minHeight: 0, px: 1 }}>
        {cards.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
            {t('kanban.empty')}
          </Typography>
        ) : (
          <VirtualList
            items={cards}
            itemKey={cardKey}
            estimatePx={CARD_ESTIMATE_PX}
            overscan={0}
            render={(ticket) => <KanbanCard ticket={ticket} />}
          />
        )}
      </Box>
    </Paper>
  );
}

/**
 * /kanban (document 2 section 2): the first lane 'open' holds the tickets with none of the kanban
 * tags, then one lane per tag flagged kanban. Dragging a card (@dnd-kit: pointer or keyboard) to
 * another lane moves it in one request; the board follows ticket events live. Lanes are virtualised
 * (VirtualList), so thousands of cards stay smooth. Needs the plan's useKanban flag (without it,
 * the plan gate's toast and a redirect to / after 1 second).
 */
export function KanbanPage() {
  const user = useCurrentUser();
  const allowed = user.super || user.company.plan?.useKanban === true;
  usePlanGateRedirect(allowed);
  return allowed ? <Board /> : <NoPermission />;
}

function Board() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const lanes = useKanbanLanes();
  const tickets = useKanbanTickets(user);
  const move = useMoveCard();
  const [dragged, setDragged] = useState<KanbanTicket | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    // Space picks a card up and drops it (arrows move it); Enter stays the card's click (open).
    useSensor(KeyboardSensor, {
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space'] },
    }),
  );
  const laneTags: Tag[] = lanes.data ?? [];
  const laneIds = useMemo(() => laneTags.map((tag) => tag.id), [laneTags]);
  const grouped = useMemo(
    () => groupByLane(tickets.data?.pages.flatMap((p) => p.tickets) ?? [], laneIds),
    [tickets.data, laneIds],
  );

  const onDragStart = (event: DragStartEvent) =>
    setDragged((event.active.data.current?.ticket as KanbanTicket | undefined) ?? null);
  const onDragEnd = (event: DragEndEvent) => {
    setDragged(null);
    const ticket = event.active.data.current?.ticket as KanbanTicket | undefined;
    const to = event.over?.data.current?.lane as LaneId | undefined;
    if (!ticket || to === undefined || laneOf(ticket, laneIds) === to) return;
    const kept = ticket.tags.filter((tag) => !laneIds.includes(tag.id));
    const target = laneTags.find((tag) => tag.id === to);
    const tags = target ? [...kept, { id: target.id, name: target.name, color: target.color }] : kept;
    move.mutate({ ticketId: ticket.id, to, tags });
  };

  if (lanes.isPending || tickets.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }} data-testid="kanban-loading">
        <CircularProgress size={28} />
      </Box>
    );
  }
  return (
    <Stack spacing={2} sx={{ height: 'calc(100vh - 112px)' }}>
      <Typography variant="h6">{t('kanban.title')}</Typography>
      <DndContext
        sensors={sensors}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragged(null)}
      >
        <Stack
          direction="row"
          spacing={2}
          sx={{ flex: 1, minHeight: 0, overflowX: 'auto', pb: 1 }}
          data-testid="kanban-board"
        >
          <Lane id={OPEN_LANE} title={t('kanban.open')} cards={grouped.get(OPEN_LANE) ?? []} />
          {laneTags.map((tag) => (
            <Lane
              key={tag.id}
              id={tag.id}
              title={tag.name}
              color={tag.color}
              cards={grouped.get(tag.id) ?? []}
            />
          ))}
        </Stack>
        <DragOverlay>
          {dragged ? (
            <Card variant="outlined" sx={{ width: LANE_WIDTH - 16, boxShadow: 4 }}>
              <CardBody ticket={dragged} />
            </Card>
          ) : null}
        </DragOverlay>
      </DndContext>
    </Stack>
  );
}
