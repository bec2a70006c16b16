import { Stack, TableCell, TableRow } from '@mui/material';
import type { FileListRecord } from '@zapdesk/shared';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadMoreOnScroll } from '../../lib/load-more-on-scroll';
import { ConfirmDeleteDialog } from '../common/confirmation-dialog';
import { DataTable } from '../common/data-table';
import { ListPageHeader } from '../common/list-page-header';
import { RowActions } from '../common/row-actions';
import { usePageRows, useSearchParam } from '../common/use-list-page';
import { useDeleteFileList, useFileLists } from './use-file-lists';

/** The form, loaded when it is first opened. */
const FileListModal = lazy(() => import('./file-list-modal').then((m) => ({ default: m.FileListModal })));

/**
 * /files (document 2 section 2 "Files"): searchable list of file lists (name, actions) with
 * infinite scroll, the count in the title, add/edit dialog and delete confirmation.
 */
export function FilesPage() {
  const { t } = useTranslation();
  const [search, setSearch, searchParam] = useSearchParam();
  const list = useFileLists(searchParam);
  const remove = useDeleteFileList();
  const [modal, setModal] = useState<{ id: number | null } | null>(null);
  const [toDelete, setToDelete] = useState<FileListRecord | null>(null);
  const files = usePageRows(list, 'files');

  return (
    <Stack spacing={2} sx={{ height: 'calc(100vh - 112px)' }}>
      <ListPageHeader
        title={t('fileLists.title', { count: files.length })}
        search={{ value: search, onChange: setSearch, label: t('fileLists.search'), testId: 'files-search' }}
        add={{
          label: t('fileLists.add'),
          testId: 'add-file-list-button',
          onClick: () => setModal({ id: null }),
        }}
      />
      <DataTable
        testId="files-table"
        stickyHeader
        sx={{ flex: 1 }}
        onScroll={loadMoreOnScroll(list)}
        head={
          <>
            <TableCell>{t('fileLists.table.name')}</TableCell>
            <TableCell width={120} align="center">
              {t('fileLists.table.actions')}
            </TableCell>
          </>
        }
      >
        {files.map((file) => (
          <TableRow key={file.id} hover data-testid={`file-list-row-${file.id}`}>
            <TableCell>{file.name}</TableCell>
            <TableCell align="center">
              <RowActions
                testIdPrefix="file-list"
                id={file.id}
                editLabel={t('fileLists.edit', { name: file.name })}
                onEdit={() => setModal({ id: file.id })}
                deleteLabel={t('fileLists.delete', { name: file.name })}
                onDelete={() => setToDelete(file)}
              />
            </TableCell>
          </TableRow>
        ))}
      </DataTable>
      {modal && (
        <Suspense fallback={null}>
          <FileListModal open fileListId={modal.id} onClose={() => setModal(null)} />
        </Suspense>
      )}
      <ConfirmDeleteDialog
        target={toDelete}
        title={t('fileLists.confirmDelete.title', { name: toDelete?.name ?? '' })}
        message={t('fileLists.confirmDelete.message')}
        deletedMessage={t('fileLists.toasts.deleted')}
        remove={remove}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
}
