import { Download, People } from '@mui/icons-material';
import { Stack, TableCell, TableRow } from '@mui/material';
import type { ContactListWithCount } from '@zapdesk/shared';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { loadMoreOnScroll } from '../../lib/load-more-on-scroll';
import { ConfirmDeleteDialog } from '../common/confirmation-dialog';
import { DataTable } from '../common/data-table';
import { ListPageHeader } from '../common/list-page-header';
import { ActionIconButton, RowActions } from '../common/row-actions';
import { usePageRows, useSearchParam } from '../common/use-list-page';
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
  const [search, setSearch, searchParam] = useSearchParam();
  const list = useContactLists(searchParam);
  const remove = useDeleteContactList();
  const [modal, setModal] = useState<{ listId: number | null } | null>(null);
  const [toDelete, setToDelete] = useState<ContactListWithCount | null>(null);
  const lists = usePageRows(list, 'records');

  return (
    <Stack spacing={2} sx={{ height: 'calc(100vh - 112px)' }}>
      <ListPageHeader
        title={t('contactListsPage.title')}
        search={{
          value: search,
          onChange: setSearch,
          label: t('contactListsPage.search'),
          testId: 'contact-lists-search',
        }}
        add={{
          label: t('contactListsPage.add'),
          testId: 'add-contact-list',
          onClick: () => setModal({ listId: null }),
        }}
      />
      <DataTable
        testId="contact-lists-table"
        stickyHeader
        sx={{ flex: 1 }}
        onScroll={loadMoreOnScroll(list)}
        head={
          <>
            <TableCell>{t('contactListsPage.table.name')}</TableCell>
            <TableCell width={160} align="center">
              {t('contactListsPage.table.contacts')}
            </TableCell>
            <TableCell width={220} align="center">
              {t('contactListsPage.table.actions')}
            </TableCell>
          </>
        }
      >
        {lists.map((row) => (
          <TableRow key={row.id} hover data-testid={`contact-list-row-${row.id}`}>
            <TableCell>{row.name}</TableCell>
            <TableCell align="center">{row.contactsCount}</TableCell>
            <TableCell align="center">
              <RowActions
                testIdPrefix="contact-list"
                id={row.id}
                editLabel={t('contactListsPage.edit', { name: row.name })}
                onEdit={() => setModal({ listId: row.id })}
                deleteLabel={t('contactListsPage.delete', { name: row.name })}
                onDelete={() => setToDelete(row)}
              >
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
      {modal && (
        <Suspense fallback={null}>
          <ContactListModal listId={modal.listId} onClose={() => setModal(null)} />
        </Suspense>
      )}
      <ConfirmDeleteDialog
        target={toDelete}
        title={t('contactListsPage.confirmDelete.title', { name: toDelete?.name ?? '' })}
        message={t('contactListsPage.confirmDelete.message')}
        deletedMessage={t('contactListsPage.toasts.deleted')}
        remove={remove}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
}
