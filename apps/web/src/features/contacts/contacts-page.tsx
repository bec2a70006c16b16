import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SearchIcon from '@mui/icons-material/Search';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import {
  Avatar,
  Button,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import {
  type Contact,
  type ContactImportResult,
  can,
  LIST_LOAD_THRESHOLD_PX,
  SEARCH_DEBOUNCE_MS,
} from '@zapdesk/shared';
import { forwardRef, type HTMLAttributes, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { type TableComponents, TableVirtuoso } from 'react-virtuoso';
import { ApiError, api } from '../../lib/api';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useCurrentUser } from '../auth/session-context';
import { ConfirmationDialog } from '../common/confirmation-dialog';
import { ContactModal } from './contact-modal';
import { contactsCsv, downloadText } from './contacts-csv';
import { ImportProgress, ImportResultDialog } from './import-dialog';
import {
  contactsKeys,
  fetchAllContacts,
  uploadContactsSheet,
  useContactsList,
  useDeleteContact,
} from './use-contacts';

const tableComponents: TableComponents<Contact> = {
  Scroller: forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>((props, ref) => (
    <TableContainer {...props} ref={ref} />
  )),
  Table: (props) => <Table {...props} size="small" stickyHeader sx={{ tableLayout: 'fixed' }} />,
  TableHead: forwardRef<HTMLTableSectionElement>((props, ref) => <TableHead {...props} ref={ref} />),
  TableRow: ({ item, ...props }) => <TableRow hover {...props} data-testid={`contact-row-${item.id}`} />,
  TableBody: forwardRef<HTMLTableSectionElement>((props, ref) => <TableBody {...props} ref={ref} />),
};

/**
 * /contacts (core section 2 "Contacts page"): search (500 ms debounce) over an infinitely scrolling
 * table (avatar, name, number, email, actions: start chat, edit, delete for admins), spreadsheet
 * import (.xlsx, upload progress, result dialog), add, and CSV export (';', contatos.csv).
 */
export function ContactsPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canDelete = can(me.profile, 'contacts-page:deleteContact');
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useContactsList(searchParam);
  const remove = useDeleteContact();
  const [modal, setModal] = useState<{ contactId: number | null } | null>(null);
  const [toDelete, setToDelete] = useState<Contact | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [importResult, setImportResult] = useState<ContactImportResult | null>(null);
  const [exporting, setExporting] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const contacts = useMemo(() => list.data?.pages.flatMap((p) => p.contacts) ?? [], [list.data]);
  const loadMore = () => {
    if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };

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
    setProgress(0);
    try {
      const result = await uploadContactsSheet(file, setProgress);
      setImportResult(result);
      void queryClient.invalidateQueries({ queryKey: contactsKeys.lists() });
    } catch (error) {
      toast.error(
        error instanceof ApiError && error.code === 'ERR_UNSUPPORTED_MEDIA_TYPE'
          ? t('contacts.import.onlyXlsx')
          : t('contacts.import.failed'),
      );
    } finally {
      setProgress(null);
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      downloadText(contactsCsv(await fetchAllContacts()), 'contatos.csv');
    } catch {
      toast.error(t('contacts.toasts.exportFailed'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack spacing={2} sx={{ height: 'calc(100vh - 112px)' }} data-testid="contacts-page">
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('contacts.title')} {list.data ? `(${list.data.pages[0]?.count ?? 0})` : ''}
        </Typography>
        <TextField
          size="small"
          placeholder={t('contacts.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': t('contacts.search'), 'data-testid': 'contacts-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon color="action" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button
          variant="outlined"
          component="label"
          startIcon={<UploadFileIcon />}
          disabled={progress !== null}
        >
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
        <Button
          variant="contained"
          startIcon={<PersonAddIcon />}
          onClick={() => setModal({ contactId: null })}
          data-testid="add-contact-button"
        >
          {t('contacts.add')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<FileDownloadIcon />}
          onClick={() => void exportCsv()}
          disabled={exporting}
          data-testid="export-contacts-button"
        >
          {t('contacts.export')}
        </Button>
      </Stack>
      {progress !== null && <ImportProgress percent={progress} />}
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 300 }}>
        <TableVirtuoso
          data={contacts}
          components={tableComponents}
          endReached={loadMore}
          increaseViewportBy={{ top: 0, bottom: LIST_LOAD_THRESHOLD_PX }}
          data-testid="contacts-table"
          fixedHeaderContent={() => (
            <TableRow sx={{ bgcolor: 'background.paper' }}>
              <TableCell width={64} />
              <TableCell>{t('contacts.table.name')}</TableCell>
              <TableCell>{t('contacts.table.number')}</TableCell>
              <TableCell>{t('contacts.table.email')}</TableCell>
              <TableCell width={150} align="center">
                {t('contacts.table.actions')}
              </TableCell>
            </TableRow>
          )}
          itemContent={(_index, contact) => (
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
                <IconButton
                  size="small"
                  aria-label={t('contacts.startChat', { name: contact.name })}
                  data-testid={`contact-chat-${contact.id}`}
                  onClick={() => void startChat(contact)}
                >
                  <WhatsAppIcon fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('contacts.editContact', { name: contact.name })}
                  data-testid={`contact-edit-${contact.id}`}
                  onClick={() => setModal({ contactId: contact.id })}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
                {canDelete && (
                  <IconButton
                    size="small"
                    aria-label={t('contacts.deleteContact', { name: contact.name })}
                    data-testid={`contact-delete-${contact.id}`}
                    onClick={() => setToDelete(contact)}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                )}
              </TableCell>
            </>
          )}
        />
      </Paper>
      {list.isSuccess && contacts.length === 0 && (
        <Typography color="text.secondary" data-testid="contacts-empty">
          {t('contacts.empty')}
        </Typography>
      )}
      {modal && <ContactModal open contactId={modal.contactId} onClose={() => setModal(null)} />}
      <ImportResultDialog result={importResult} onClose={() => setImportResult(null)} />
      <ConfirmationDialog
        open={toDelete !== null}
        title={t('contacts.confirmDelete.title', { name: toDelete?.name ?? '' })}
        message={t('contacts.confirmDelete.message')}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          const target = toDelete;
          if (!target) return;
          remove.mutate(target.id, { onSuccess: () => toast.success(t('contacts.toasts.deleted')) });
        }}
      />
    </Stack>
  );
}
