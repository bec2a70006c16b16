/**
 * Ticket notes in the contact drawer (core sections 2, 5 and 8): add (at least 2 characters) with
 * 'Observação adicionada com sucesso!', delete after 'Deseja realmente excluir este registro?' with
 * 'Observação excluída com sucesso!'.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import {
  Box,
  Button,
  CircularProgress,
  IconButton,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { formatDateTime } from '../../lib/format';
import { validationText } from '../../lib/validation-text';
import { ConfirmationDialog } from '../common/confirmation-dialog';
import { useAddNote, useDeleteNote, useNotes } from './use-ticket-view';

const ZNoteForm = z.object({ note: z.string().trim().min(1, 'required').min(2, 'tooShort') });
type NoteForm = z.infer<typeof ZNoteForm>;

export function TicketNotes({ ticketId, contactId }: { ticketId: number; contactId: number }) {
  const { t } = useTranslation();
  const notes = useNotes(ticketId, contactId);
  const add = useAddNote(ticketId, contactId);
  const remove = useDeleteNote(ticketId, contactId);
  const [toDelete, setToDelete] = useState<number | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<NoteForm>({ resolver: zodResolver(ZNoteForm), defaultValues: { note: '' } });

  return (
    <Stack spacing={1} data-testid="ticket-notes">
      <Typography variant="subtitle2">{t('ticketView.notes')}</Typography>
      <Stack
        component="form"
        spacing={1}
        noValidate
        onSubmit={handleSubmit(({ note }) =>
          add.mutate(
            { note: note.trim() },
            {
              onSuccess: () => {
                toast.success(t('ticketView.noteAdded'), { autoClose: 2000 });
                reset({ note: '' });
              },
            },
          ),
        )}
      >
        <TextField
          multiline
          minRows={2}
          size="small"
          placeholder={t('ticketView.notePlaceholder')}
          {...register('note')}
          error={!!errors.note}
          helperText={errors.note?.message ? validationText(t, errors.note.message) : undefined}
          slotProps={{ htmlInput: { 'data-testid': 'note-input' } }}
        />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button
            type="submit"
            size="small"
            variant="contained"
            disabled={add.isPending}
            data-testid="note-save"
          >
            {t('common.save')}
          </Button>
        </Box>
      </Stack>
      {notes.isPending && <CircularProgress size={20} />}
      {(notes.data ?? []).map((note) => (
        <Paper key={note.id} variant="outlined" sx={{ p: 1 }} data-testid={`note-item-${note.id}`}>
          <Stack direction="row" alignItems="flex-start" spacing={1}>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {note.note}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {[note.user?.name, formatDateTime(note.createdAt)].filter(Boolean).join(' · ')}
              </Typography>
            </Box>
            <IconButton
              size="small"
              aria-label={t('ticketView.delete')}
              data-testid={`note-delete-${note.id}`}
              onClick={() => setToDelete(note.id)}
            >
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Stack>
        </Paper>
      ))}
      <ConfirmationDialog
        open={toDelete !== null}
        title={t('ticketView.deleteNoteTitle')}
        message={t('ticketView.confirmDelete')}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete === null) return;
          remove.mutate(toDelete, {
            onSuccess: () => toast.success(t('ticketView.noteDeleted'), { autoClose: 2000 }),
          });
        }}
      />
    </Stack>
  );
}
