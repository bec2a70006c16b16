import FileDownloadIcon from '@mui/icons-material/FileDownload';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { Avatar, Button, TableCell } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { type Contact, type ContactImportResult, can } from '@zapdesk/shared';
import { lazy, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { ApiError, api } from '../../lib/api';
import { useCurrentUser } from '../auth/session-context';
import { InfiniteTable } from '../common/infinite-table';
import { ListPage, useConfirmDelete } from '../common/list-page';
import { ActionIconButton, RowActions } from '../common/row-actions';
import { useSearchBox } from '../common/use-list-page';
import { downloadContactsCsv } from './contacts-csv';
import { ImportProgress, ImportResultDialog } from './import-dialog';
import { contactsKeys, uploadContactsSheet, useContactsList, useDeleteContact } from './use-contacts';

/** The form (react-hook-form, zod), loaded when it is first opened. */
const ContactModal = lazy(() => import('./contact-modal').then((m) => ({ default: m.ContactModal })));

const contactRowTestId = (contact: Contact) => `contact-row-${contact.id}`;

/**
 * /contacts (core section 2 "Contacts page"): search (500 ms debounce) over an infinitely scrolling
 * table (avatar, name, number, email, actions: start chat, edit, delete for admins), spreadsheet
 * import (.xlsx, progress bar, result dialog), add, and CSV export (';', contatos.csv).
 */
export function ContactsPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canDelete = can(me.profile, 'contacts-page:deleteContact');
  const search = useSearchBox(t('contacts.search'), 'contacts-search');
  const list = useContactsList(search.param);
  const [modal, setModal] = useState<{ contactId: number | null } | null>(null);
  const confirmDelete = useConfirmDelete<Contact>(useDeleteContact(), 'contacts');
  const [importing, setImporting] = useState(false);
  const [importResult, setImportResult] = useState<ContactImportResult | null>(null);
  const [exporting, setExporting] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const contacts = useMemo(() => list.data?.pages.flatMap((p) => p.contacts) ?? [], [list.data]);

  const startChat = async (contact: Contact) => {
    try {
      const ticket = await api.post<{ uuid: string }>('/tickets', { contactId: contact.id });
      navigate(`/tickets/${ticket.uuid}`);
    } catch (error) {
      const existing =
        error instanceof ApiError ? (error.body?.ticket as { uuid?: string } | undefined) : undefined;
      if (error instanceof ApiError && error.code === 'ERR_OTHER_OPEN_TICKET' && existing?.uuid) {
        navigate(`/tickets/${existing.uuid}`);
      } else {
        toast.error(
          t(`errors.${error instanceof ApiError ? error.code : ''}`, {
            defaultValue: t('contacts.toasts.chatFailed'),
          }),
        );
      }
    }
  };

  const onFile = async (file: File | undefined) => {
    if (fileInput.current) fileInput.current.value = '';
    if (!file) return;
    if (!/\.xlsx$/i.test(file.name)) {
      toast.error(t('contacts.import.onlyXlsx'));
      return;
    }
    setImporting(true);
    try {
      const result = await uploadContactsSheet(file);
      setImportResult(result);
      void queryClient.invalidateQueries({ queryKey: contactsKeys.lists() });
    } catch (error) {
      toast.error(
        error instanceof ApiError && error.code === 'ERR_UNSUPPORTED_MEDIA_TYPE'
          ? t('contacts.import.onlyXlsx')
          : t('contacts.import.failed'),
      );
    } finally {
      setImporting(false);
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadContactsCsv();
    } catch {
      toast.error(t('contacts.toasts.exportFailed'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <ListPage
      testId="contacts-page"
      fill
      rowFrom="md"
      title={`${t('contacts.title')} ${list.data ? `(${list.data.pages[0]?.count ?? 0})` : ''}`}
      search={search.box}
      before={
        <Button variant="outlined" component="label" startIcon={<UploadFileIcon />} disabled={importing}>
          {t('contacts.importButton')}
          <input
            ref={fileInput}
            type="file"
            hidden
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            data-testid="import-contacts-input"
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </Button>
      }
      add={{
        label: t('contacts.add'),
        testId: 'add-contact-button',
        icon: <PersonAddIcon />,
        onClick: () => setModal({ contactId: null }),
      }}
      after={
        <Button
          variant="outlined"
          startIcon={<FileDownloadIcon />}
          onClick={() => void exportCsv()}
          disabled={exporting}
          data-testid="export-contacts-button"
        >
          {t('contacts.export')}
        </Button>
      }
      modal={modal && <ContactModal open contactId={modal.contactId} onClose={() => setModal(null)} />}
      deleteDialog={confirmDelete.dialog}
    >
      {importing && <ImportProgress />}
      <InfiniteTable
        list={list}
        data={contacts}
        testId="contacts-table"
        rowTestId={contactRowTestId}
        empty={{ text: t('contacts.empty'), testId: 'contacts-empty' }}
        columns={[
          { width: 64 },
          { label: t('contacts.table.name') },
          { label: t('contacts.table.number') },
          { label: t('contacts.table.email') },
          { label: t('contacts.table.actions'), width: 150, align: 'center' },
        ]}
        row={(contact) => (
          <>
            <TableCell>
              <Avatar
                src={contact.profilePicUrl ?? undefined}
                alt={contact.name}
                sx={{ width: 32, height: 32 }}
              >
                {contact.name.charAt(0).toUpperCase()}
              </Avatar>
            </TableCell>
            <TableCell sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{contact.name}</TableCell>
            <TableCell sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{contact.number}</TableCell>
            <TableCell sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{contact.email}</TableCell>
            <TableCell align="center">
              <RowActions
                testIdPrefix="contact"
                id={contact.id}
                editLabel={t('contacts.editContact', { name: contact.name })}
                onEdit={() => setModal({ contactId: contact.id })}
                deleteLabel={t('contacts.deleteContact', { name: contact.name })}
                onDelete={canDelete ? () => confirmDelete.ask(contact) : undefined}
              >
                <ActionIconButton
                  label={t('contacts.startChat', { name: contact.name })}
                  testId={`contact-chat-${contact.id}`}
                  icon={<WhatsAppIcon fontSize="small" />}
                  onClick={() => void startChat(contact)}
                />
              </RowActions>
            </TableCell>
          </>
        )}
      />
      <ImportResultDialog result={importResult} onClose={() => setImportResult(null)} />
    </ListPage>
  );
}
