import 'react-big-calendar/lib/css/react-big-calendar.css';
import { Box, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { Contact, Schedule } from '@zapdesk/shared';
import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enUS, es, ptBR } from 'date-fns/locale';
import { lazy, useMemo, useState } from 'react';
import { Calendar, dateFnsLocalizer, type EventProps, Views } from 'react-big-calendar';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../lib/api';
import { ListPage, useConfirmDelete } from '../common/list-page';
import { RowActions } from '../common/row-actions';
import { useSearchBox } from '../common/use-list-page';
import { useDeleteSchedule, useSchedules } from './use-schedules';

/** The form (react-hook-form, zod), loaded when it is first opened. */
const ScheduleModal = lazy(() => import('./schedule-modal').then((m) => ({ default: m.ScheduleModal })));

const localizer = dateFnsLocalizer({
  format,
  parse,
  startOfWeek,
  getDay,
  locales: { 'pt-BR': ptBR, pt: ptBR, en: enUS, es },
});

/** The calendar's culture for the UI language (pt-BR by default). */
function cultureOf(language: string): string {
  if (language.startsWith('en')) return 'en';
  if (language.startsWith('es')) return 'es';
  return 'pt-BR';
}

/** The calendar's height in pixels (document 2 section 10). */
const SCHEDULE_CALENDAR_HEIGHT = 500;

interface ScheduleEvent {
  title: string;
  start: Date;
  end: Date;
  resource: Schedule;
}

type ModalState = { record?: Schedule | null; contact?: Contact | null; start?: Date } | null;

/**
 * /schedules (document 2 sections 2 and 5): a month/week/day calendar 500 px high
 * in the UI language, search (500 ms), add/edit dialog, delete after confirmation; `?contactId=`
 * opens the dialog for that contact. Live through `company-{id}-schedule`.
 */
export function SchedulesPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const search = useSearchBox(t('schedules.search'), 'schedules-search');
  const list = useSchedules(search.param);
  const [modal, setModal] = useState<ModalState>(null);
  const confirmDelete = useConfirmDelete<Schedule>(useDeleteSchedule(), {
    title: () => t('schedules.confirmDelete.title'),
    message: t('schedules.confirmDelete.message'),
    deletedMessage: t('schedules.toasts.deleted'),
  });
  const contactId = Number(params.get('contactId')) || null;
  const linked = useQuery({
    queryKey: ['contacts', 'detail', contactId ?? 0],
    queryFn: ({ signal }) => api.get<Contact>(`/contacts/${contactId}`, undefined, signal),
    enabled: contactId !== null,
  });
  const culture = cultureOf(i18n.language);

  const events = useMemo<ScheduleEvent[]>(
    () =>
      (list.data ?? []).map((schedule) => {
        const start = new Date(schedule.sendAt);
        return { title: schedule.contact.name, start, end: start, resource: schedule };
      }),
    [list.data],
  );

  const closeModal = () => {
    setModal(null);
    if (contactId !== null) setParams({}, { replace: true });
  };
  const shown: ModalState = modal ?? (contactId !== null && linked.data ? { contact: linked.data } : null);

  const EventCell = ({ event }: EventProps<ScheduleEvent>) => (
    <Stack direction="row" alignItems="center" spacing={0.5} data-testid={`schedule-${event.resource.id}`}>
      <Typography variant="caption" noWrap sx={{ flex: 1 }} title={event.resource.body}>
        {event.title} · {t(`schedules.status.${event.resource.status}`)}
      </Typography>
      <RowActions
        testIdPrefix="schedule"
        id={event.resource.id}
        editLabel={t('schedules.edit')}
        onEdit={() => setModal({ record: event.resource })}
        deleteLabel={t('schedules.delete')}
        onDelete={() => confirmDelete.ask(event.resource)}
      />
    </Stack>
  );

  return (
    <ListPage
      title={t('schedules.title')}
      search={search.box}
      add={{ label: t('schedules.add'), testId: 'add-schedule-button', onClick: () => setModal({}) }}
      modal={
        shown && (
          <ScheduleModal
            record={shown.record}
            contact={
              shown.contact
                ? { id: shown.contact.id, name: shown.contact.name, number: shown.contact.number }
                : null
            }
            start={shown.start}
            onClose={closeModal}
          />
        )
      }
      deleteDialog={confirmDelete.dialog}
    >
      <Paper variant="outlined" sx={{ p: 1 }}>
        <Box style={{ height: SCHEDULE_CALENDAR_HEIGHT }} data-testid="schedules-calendar">
          <Calendar<ScheduleEvent>
            localizer={localizer}
            culture={culture}
            events={events}
            views={[Views.MONTH, Views.WEEK, Views.DAY]}
            defaultView={Views.MONTH}
            popup
            selectable
            onSelectSlot={(slot) => setModal({ start: slot.start > new Date() ? slot.start : undefined })}
            onSelectEvent={(event) => setModal({ record: event.resource })}
            components={{ event: EventCell }}
            messages={{
              today: t('schedules.calendar.today'),
              previous: t('schedules.calendar.previous'),
              next: t('schedules.calendar.next'),
              month: t('schedules.calendar.month'),
              week: t('schedules.calendar.week'),
              day: t('schedules.calendar.day'),
              agenda: t('schedules.calendar.agenda'),
              date: t('schedules.calendar.date'),
              time: t('schedules.calendar.time'),
              event: t('schedules.calendar.event'),
              noEventsInRange: t('schedules.empty'),
              showMore: (total: number) => t('schedules.calendar.showMore', { count: total }),
            }}
          />
        </Box>
      </Paper>
    </ListPage>
  );
}
