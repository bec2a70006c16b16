import { Chip, List, ListItem, ListItemText, Paper, Stack, Typography } from '@mui/material';
import type { Announcement } from '@zapdesk/shared';
import { lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { loadMoreOnScroll } from '../../lib/load-more-on-scroll';
import { useCurrentUser } from '../auth/session-context';
import { ListPage, useRecordListPage } from '../common/list-page';
import { RowActions } from '../common/row-actions';
import { usePageRows } from '../common/use-list-page';
import { useAnnouncementsList, useDeleteAnnouncement } from './use-announcements';

/** The form, loaded when it is first opened. */
const AnnouncementModal = lazy(() =>
  import('./announcement-modal').then((m) => ({ default: m.AnnouncementModal })),
);

/** Delay before a user who is not the super user leaves /announcements (document 2 section 6). */
export const ANNOUNCEMENTS_REDIRECT_MS = 1000;

/**
 * /announcements (document 2 section 2): the super user's list of every announcement with the
 * add/edit dialog and delete. Other users get an info toast and go to / after 1 second.
 */
export function AnnouncementsPage() {
  const me = useCurrentUser();
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    if (me.super) return;
    toast.info(t('announcements.toasts.superOnly'));
    const timer = setTimeout(() => navigate('/'), ANNOUNCEMENTS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [me.super, navigate, t]);
  return me.super ? <AnnouncementsList /> : null;
}

function AnnouncementsList() {
  const { t } = useTranslation();
  const page = useRecordListPage<Announcement, { record: Announcement | null }>({
    ns: 'announcements',
    searchTestId: 'announcements-search',
    addTestId: 'add-announcement-button',
    blank: { record: null },
    edit: (record) => ({ record }),
    remove: useDeleteAnnouncement(),
    deleteTexts: {
      title: (record) => t('announcements.confirmDelete.title', { title: record?.title ?? '' }),
      message: t('announcements.confirmDelete.message'),
      deletedMessage: t('announcements.toasts.deleted'),
    },
    rowNames: (record) => ({ title: record.title }),
  });
  const list = useAnnouncementsList(page.param);
  const records = usePageRows(list, 'records');

  return (
    <ListPage
      fill
      {...page.frame}
      modal={page.target && <AnnouncementModal record={page.target.record} onClose={page.close} />}
    >
      <Paper variant="outlined" sx={{ flex: 1, overflow: 'auto' }} onScroll={loadMoreOnScroll(list)}>
        <List data-testid="announcements-list">
          {records.map((record) => (
            <ListItem
              key={record.id}
              divider
              data-testid={`announcement-${record.id}`}
              secondaryAction={<RowActions testIdPrefix="announcement" {...page.actions(record)} />}
            >
              <ListItemText
                primary={
                  <Stack direction="row" spacing={1} alignItems="center">
                    <strong>{record.title}</strong>
                    <Chip size="small" label={t(`announcements.priority.${record.priority}`)} />
                    <Chip
                      size="small"
                      variant="outlined"
                      color={record.status ? 'success' : 'default'}
                      label={record.status ? t('announcements.active') : t('announcements.inactive')}
                    />
                  </Stack>
                }
                secondary={record.text}
                slotProps={{ secondary: { noWrap: true } }}
                sx={{ pr: 10 }}
              />
            </ListItem>
          ))}
        </List>
        {list.isSuccess && records.length === 0 && (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {t('announcements.empty')}
          </Typography>
        )}
      </Paper>
    </ListPage>
  );
}
