import AttachFileIcon from '@mui/icons-material/AttachFile';
import { Chip, Stack, Typography } from '@mui/material';
import { can, type QuickMessage } from '@zapdesk/shared';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../auth/session-context';
import { ListPage, useRecordListPage } from '../common/list-page';
import { RecordList, RecordListItem } from '../common/record-list';
import { usePageRows } from '../common/use-list-page';
import { useDeleteQuickMessage, useQuickMessagesList } from './use-quick-messages';

/** The form (react-hook-form, zod), loaded when it is first opened. */
const QuickMessageModal = lazy(() =>
  import('./quick-message-modal').then((m) => ({ default: m.QuickMessageModal })),
);

/**
 * /quick-messages (document 2 section 2): searchable list (500 ms debounce, infinite scroll) with
 * the add/edit dialog and delete after confirmation. A user changes only its own quick messages;
 * admins change any.
 */
export function QuickMessagesPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const admin = can(me.profile, 'user-modal:editProfile');
  const page = useRecordListPage<QuickMessage, { record: QuickMessage | null }>({
    ns: 'quickMessages',
    searchTestId: 'quick-messages-search',
    addTestId: 'add-quick-message-button',
    blank: { record: null },
    edit: (record) => ({ record }),
    remove: useDeleteQuickMessage(),
    nameKey: 'shortcode',
  });
  const list = useQuickMessagesList(page.param, me.id);
  const records = usePageRows(list, 'records');

  return (
    <ListPage
      fill
      {...page.frame}
      modal={page.target && <QuickMessageModal open record={page.target.record} onClose={page.close} />}
    >
      <RecordList
        list={list}
        testId="quick-messages-list"
        empty={records.length === 0 && t('quickMessages.empty')}
      >
        {records.map((record) => (
          <RecordListItem
            key={record.id}
            testId={`quick-message-${record.id}`}
            actions={
              admin || record.userId === me.id
                ? { testIdPrefix: 'quick-message', ...page.actions(record) }
                : null
            }
            title={
              <>
                <strong>/{record.shortcode}</strong>
                {record.geral && <Chip size="small" label={t('quickMessages.geral')} />}
                {record.mediaName && (
                  <Stack
                    direction="row"
                    spacing={0.5}
                    alignItems="center"
                    sx={{ minWidth: 0 }}
                    data-testid={`quick-message-media-${record.id}`}
                  >
                    <AttachFileIcon fontSize="small" color="action" aria-hidden />
                    <Typography variant="caption" color="text.secondary" noWrap>
                      {record.mediaName}
                    </Typography>
                  </Stack>
                )}
              </>
            }
            text={record.message}
          />
        ))}
      </RecordList>
    </ListPage>
  );
}
