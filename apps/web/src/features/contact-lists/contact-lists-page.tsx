import { Download, People } from '@mui/icons-material';
import { TableCell, TableRow } from '@mui/material';
import type { ContactListWithCount } from '@zapdesk/shared';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { DataTable } from '../common/data-table';
import { ListPage, useRecordListPage } from '../common/list-page';
import { ActionIconButton, RowActions } from '../common/row-actions';
import { usePageRows } from '../common/use-list-page';
import { downloadSampleSheet, useContactLists, useDeleteContactList } from './use-contact-lists';

/** The form, loaded when it is first opened. */
const ContactListModal = lazy(() =>
  import('./contact-list-modals').then((m) => ({ default: m.ContactListModal })),
);

/**
 * /contact-lists (document 2 section 4): table of name, contact count and actions (download a
 * sample sheet, open the list's contacts, edit, delete), search and add dialog.
 */
export function ContactListsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const page = useRecordListPage<ContactListWithCount, { listId: number | null }>({
    ns: 'contactListsPage',
    searchTestId: 'contact-lists-search',
    addTestId: 'add-contact-list',
    blank: { listId: null },
    edit: (row) => ({ listId: row.id }),
    remove: useDeleteContactList(),
  });
  const list = useContactLists(page.param);
  const lists = usePageRows(list, 'records');

  return (
    <ListPage
      fill
      {...page.frame}
      modal={page.target && <ContactListModal listId={page.target.listId} onClose={page.close} />}
    >
      <DataTable
        testId="contact-lists-table"
        pages={list}
        columns={[
          { label: t('contactListsPage.table.name') },
          { label: t('contactListsPage.table.contacts'), width: 160, align: 'center' },
          { label: t('contactListsPage.table.actions'), width: 220, align: 'center' },
        ]}
      >
        {lists.map((row) => (
          <TableRow key={row.id} hover data-testid={`contact-list-row-${row.id}`}>
            <TableCell>{row.name}</TableCell>
            <TableCell align="center">{row.contactsCount}</TableCell>
            <TableCell align="center">
              <RowActions testIdPrefix="contact-list" {...page.actions(row)}>
                <ActionIconButton
                  label={t('contactListsPage.sample')}
                  testId={`contact-list-sample-${row.id}`}
                  icon={<Download />}
                  onClick={() =>
                    void downloadSampleSheet().catch(() =>
                      toast.error(t('contactListsPage.toasts.sampleFailed')),
                    )
                  }
                />
                <ActionIconButton
                  label={t('contactListsPage.open', { name: row.name })}
                  testId={`contact-list-open-${row.id}`}
                  icon={<People />}
                  onClick={() => navigate(`/contact-lists/${row.id}/contacts`)}
                />
              </RowActions>
            </TableCell>
          </TableRow>
        ))}
      </DataTable>
    </ListPage>
  );
}
