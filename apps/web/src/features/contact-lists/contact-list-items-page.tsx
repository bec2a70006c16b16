import { ArrowBack, CheckCircle, HelpOutline, HighlightOff, UploadFile } from '@mui/icons-material';
import {
  Alert,
  Button,
  LinearProgress,
  Stack,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { ContactListEntry } from '@zapdesk/shared';
import { lazy, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { ApiError } from '../../lib/api';
import { validationText } from '../../lib/validation-text';
import { useCurrentUser } from '../auth/session-context';
import { DataTable } from '../common/data-table';
import { ListPage, useConfirmDelete } from '../common/list-page';
import { RowActionsCell } from '../common/row-actions-cell';
import { usePageRows, useSearchBox } from '../common/use-list-page';
import {
  contactListKeys,
  uploadContactListSheet,
  useContactList,
  useContactListImport,
  useContactListItems,
  useDeleteContactListItem,
} from './use-contact-lists';

/** The contact form (react-hook-form, zod), loaded when it is first opened. */
const ContactListItemModal = lazy(() =>
  import('./contact-list-modals').then((m) => ({ default: m.ContactListItemModal })),
);

function Validity({ value }: { value: boolean | null }) {
  const { t } = useTranslation();
  if (value === null)
    return (
      <Tooltip title={t('contactListsPage.items.unchecked')}>
        <HelpOutline color="disabled" fontSize="small" data-testid="validity-unchecked" />
      </Tooltip>
    );
  return value ? (
    <Tooltip title={t('contactListsPage.items.valid')}>
      <CheckCircle color="success" fontSize="small" data-testid="validity-valid" />
    </Tooltip>
  ) : (
    <Tooltip title={t('contactListsPage.items.invalid')}>
      <HighlightOff color="error" fontSize="small" data-testid="validity-invalid" />
    </Tooltip>
  );
}

/**
 * /contact-lists/:contactListId/contacts (document 2 section 4): the list's contacts with search, a
 * back-to-lists button, an import button (.xlsx; progress and the per-row error bag shown live) and
 * an add button; rows show name, number, email and whether the number has WhatsApp.
 */
export function ContactListItemsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const listId = Number(useParams().contactListId);
  // The list routes are admins' (the server refuses others): agents see no add or import.
  const me = useCurrentUser();
  const admin = me.profile === 'admin' || me.super;
  const contactList = useContactList(listId);
  const search = useSearchBox(t('contactListsPage.items.search'), 'contact-list-items-search');
  const list = useContactListItems(listId, search.param);
  const importState = useContactListImport(listId);
  const [modal, setModal] = useState<{ itemId: number | null } | null>(null);
  const confirmDelete = useConfirmDelete<ContactListEntry>(useDeleteContactListItem(listId), {
    title: (record) => t('contactListsPage.confirmDelete.itemTitle', { name: record?.name ?? '' }),
    message: t('contactListsPage.confirmDelete.message'),
    deletedMessage: t('contactListsPage.toasts.itemDeleted'),
  });
  const fileInput = useRef<HTMLInputElement>(null);
  const items = usePageRows(list, 'contacts');
  const current = importState.data;
  const running = current && (current.status === 'pending' || current.status === 'running');

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      const started = await uploadContactListSheet(listId, file);
      queryClient.setQueryData(contactListKeys.import(listId), started);
      toast.info(t('contactListsPage.import.started'));
    } catch (error) {
      const body = error instanceof ApiError ? (error.body as { message?: string } | null) : null;
      toast.error(
        body?.message === 'xlsNotSupported'
          ? t('contactListsPage.import.xlsNotSupported')
          : body?.message === 'notXlsx'
            ? t('contactListsPage.import.notXlsx')
            : t('contactListsPage.import.failed'),
      );
    }
  };

  return (
    <ListPage
      fill
      title={t('contactListsPage.items.title', { name: contactList.data?.name ?? '' })}
      search={search.box}
      before={
        <Button
          startIcon={<ArrowBack />}
          onClick={() => navigate('/contact-lists')}
          data-testid="contact-list-back"
        >
          {t('contactListsPage.items.back')}
        </Button>
      }
      after={
        admin && (
          <Button
            variant="outlined"
            startIcon={<UploadFile />}
            onClick={() => fileInput.current?.click()}
            data-testid="contact-list-import"
          >
            {t('contactListsPage.items.import')}
          </Button>
        )
      }
      add={
        admin
          ? {
              label: t('contactListsPage.items.add'),
              testId: 'add-contact-list-item',
              onClick: () => setModal({ itemId: null }),
            }
          : undefined
      }
      modal={
        modal && <ContactListItemModal listId={listId} itemId={modal.itemId} onClose={() => setModal(null)} />
      }
      deleteDialog={confirmDelete.dialog}
    >
      <input
        ref={fileInput}
        type="file"
        hidden
        accept=".xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        data-testid="contact-list-import-input"
        onChange={(e) => {
          void onFile(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {current && (
        <Stack spacing={1} data-testid="contact-list-import-state">
          {running && (
            <>
              <Typography variant="body2" data-testid="contact-list-import-progress">
                {current.total > 0
                  ? t('contactListsPage.import.progressOf', {
                      processed: current.processed,
                      total: current.total,
                    })
                  : t('contactListsPage.import.progress', { processed: current.processed })}
              </Typography>
              <LinearProgress
                variant={current.total > 0 ? 'determinate' : 'indeterminate'}
                value={
                  current.total > 0 ? Math.min(100, (current.processed / current.total) * 100) : undefined
                }
                aria-label={t('contactListsPage.import.progress', { processed: current.processed })}
              />
            </>
          )}
          {current.status === 'done' && (
            <Alert severity={current.errors.length ? 'warning' : 'success'}>
              {t('contactListsPage.import.done', {
                imported: current.imported,
                duplicates: current.duplicates,
                errors: current.errors.length,
              })}
              {current.errors.slice(0, 20).map((e) => (
                <div key={`${e.row}-${e.field}`}>
                  {t('contactListsPage.import.rowError', {
                    row: e.row,
                    field: t(`contactListsPage.itemModal.${e.field}`, { defaultValue: e.field }),
                    message: t(`contactListsPage.import.${e.message}`, {
                      defaultValue: validationText(t, e.message),
                    }),
                  })}
                </div>
              ))}
            </Alert>
          )}
          {current.status === 'failed' && (
            <Alert severity="error">{t('contactListsPage.import.unreadable')}</Alert>
          )}
        </Stack>
      )}
      <DataTable
        testId="contact-list-items-table"
        pages={list}
        columns={[
          { width: 60 },
          { label: t('contactListsPage.itemModal.name') },
          { label: t('contactListsPage.itemModal.number') },
          { label: t('contactListsPage.itemModal.email') },
          { label: t('contactListsPage.table.actions'), width: 120, align: 'center' },
        ]}
      >
        {items.map((item) => (
          <TableRow key={item.id} hover data-testid={`contact-list-item-row-${item.id}`}>
            <TableCell>
              <Validity value={item.isWhatsappValid} />
            </TableCell>
            <TableCell>{item.name}</TableCell>
            <TableCell>{item.number}</TableCell>
            <TableCell>{item.email}</TableCell>
            <RowActionsCell
              testIdPrefix="contact-list-item"
              id={item.id}
              editLabel={t('contactListsPage.edit', { name: item.name })}
              onEdit={() => setModal({ itemId: item.id })}
              deleteLabel={t('contactListsPage.delete', { name: item.name })}
              onDelete={() => confirmDelete.ask(item)}
            />
          </TableRow>
        ))}
      </DataTable>
    </ListPage>
  );
}
