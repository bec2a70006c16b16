import { TableCell, TableRow } from '@mui/material';
import type { FileListRecord } from '@zapdesk/shared';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../common/data-table';
import { ListPage, useRecordListPage } from '../common/list-page';
import { RowActionsCell } from '../common/row-actions-cell';
import { usePageRows } from '../common/use-list-page';
import { useDeleteFileList, useFileLists } from './use-file-lists';

/** The form, loaded when it is first opened. */
const FileListModal = lazy(() => import('./file-list-modal').then((m) => ({ default: m.FileListModal })));

/**
 * /files (document 2 section 2 "Files"): searchable list of file lists (name, actions) with
 * infinite scroll, the count in the title, add/edit dialog and delete confirmation.
 */
export function FilesPage() {
  const { t } = useTranslation();
  const page = useRecordListPage<FileListRecord, { id: number | null }>({
    ns: 'fileLists',
    searchTestId: 'files-search',
    addTestId: 'add-file-list-button',
    blank: { id: null },
    edit: (file) => ({ id: file.id }),
    remove: useDeleteFileList(),
  });
  const list = useFileLists(page.param);
  const files = usePageRows(list, 'files');

  return (
    <ListPage
      fill
      {...page.frame}
      title={t('fileLists.title', { count: files.length })}
      modal={page.target && <FileListModal open fileListId={page.target.id} onClose={page.close} />}
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
            <RowActionsCell testIdPrefix="file-list" {...page.actions(file)} />
          </TableRow>
        ))}
      </DataTable>
    </ListPage>
  );
}
