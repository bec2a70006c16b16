import { Chip } from '@mui/material';
import type { Announcement } from '@zapdesk/shared';
import { lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useCurrentUser } from '../auth/session-context';
import { ListPage, useRecordListPage } from '../common/list-page';
import { RecordList, RecordListItem } from '../common/record-list';
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
    nameKey: 'title',
  });
  const list = useAnnouncementsList(page.param);
  const records = usePageRows(list, 'records');

  return (
    <ListPage
      fill
      {...page.frame}
      modal={page.target && <AnnouncementModal record={page.target.record} onClose={page.close} />}
    >
      <RecordList
        list={list}
        testId="announcements-list"
        empty={records.length === 0 && t('announcements.empty')}
      >
        {records.map((record) => (
          <RecordListItem
            key={record.id}
            testId={`announcement-${record.id}`}
            actions={{ testIdPrefix: 'announcement', ...page.actions(record) }}
            title={
              <>
                <strong>{record.title}</strong>
                <Chip size="small" label={t(`announcements.priority.${record.priority}`)} />
                <Chip
                  size="small"
                  variant="outlined"
                  color={record.status ? 'success' : 'default'}
                  label={record.status ? t('announcements.active') : t('announcements.inactive')}
                />
              </>
            }
            text={record.text}
          />
        ))}
      </RecordList>
    </ListPage>
  );
}
