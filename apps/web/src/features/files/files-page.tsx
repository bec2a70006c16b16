import { TableCell, TableRow } from '@mui/material';
import type { FileListRecord } from '@zapdesk/shared';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../common/data-table';
import { ListPage, useConfirmDelete } from '../common/list-page';
import { RowActionsCell } from '../common/row-actions-cell';
import { useEditTarget, usePageRows, useSearchBox } from '../common/use-list-page';
import { useDeleteFileList, useFileLists } from './use-file-lists';

/** The form, loaded when it is first opened. */
const FileListModal = lazy(() => import('./file-list-modal').then((m) => ({ default: m.FileListModal })));

/**
 * /files (document 2 section 2 "Files"): searchable list of file lists (name, actions) with
 * infinite scroll, the count in the title, add/edit dialog and delete confirmation.
 */
export function FilesPage() {
  const { t } = useTranslation();
  const search = useSearchBox(t('fileLists.search'), 'files-search');
  const list = useFileLists(search.param);
  const modal = useEditTarget<{ id: number | null }>(
    { id: null },
    { label: t('fileLists.add'), testId: 'add-file-list-button' },
  );
  const confirmDelete = useConfirmDelete<FileListRecord>(useDeleteFileList(), 'fileLists');
  const files = usePageRows(list, 'files');

  return (
    <ListPage
      fill
      title={t('fileLists.title', { count: files.length })}
      search={search.box}
      add={modal.add}
      modal={modal.target && <FileListModal open fileListId={modal.target.id} onClose={modal.close} />}
      deleteDialog={confirmDelete.dialog}
    >
      <DataTable
        testId="files-table"
        pages={list}
        columns={[
          { label: t('fileLists.table.name') },
          { label: t('fileLists.table.actions'), width: 120, align: 'center' },
        ]}
      >
        {files.map((file) => (
          <TableRow key={file.id} hover data-testid={`file-list-row-${file.id}`}>
            <TableCell>{file.name}</TableCell>
            <RowActionsCell
              testIdPrefix="file-list"
              id={file.id}
              editLabel={t('fileLists.edit', { name: file.name })}
              onEdit={() => modal.open({ id: file.id })}
              deleteLabel={t('fileLists.delete', { name: file.name })}
              onDelete={() => confirmDelete.ask(file)}
            />
          </TableRow>
        ))}
      </DataTable>
    </ListPage>
  );
}
