/**
 * Transfer dialog (core section 4): a queue and an optional user. Without a user the ticket goes back
 * to pending in that queue; with one it is open and assigned to that user.
 */
import { DialogContent, MenuItem, Stack, TextField } from '@mui/material';
import type { Ticket, UpdateTicketBody } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogActionButtons } from '../common/dialog-action-buttons';
import { DialogFrame } from '../common/dialog-frame';
import { useTransferQueues, useTransferUsers } from './use-ticket-view';

interface TransferDialogProps {
  open: boolean;
  ticket: Ticket;
  saving: boolean;
  onClose: () => void;
  onTransfer: (body: UpdateTicketBody) => void;
}

export function TransferDialog({ open, ticket, saving, onClose, onTransfer }: TransferDialogProps) {
  const { t } = useTranslation();
  const queues = useTransferQueues(open);
  const users = useTransferUsers(open);
  const [queueId, setQueueId] = useState<number | ''>(ticket.queueId ?? '');
  const [userId, setUserId] = useState<number | ''>('');

  const save = () => {
    if (queueId === '') return;
    const user = userId === '' ? null : userId;
    onTransfer({ queueId, userId: user, status: user ? 'open' : 'pending' });
  };

  return (
    <DialogFrame
      open={open}
      onClose={onClose}
      title={t('ticketView.transferTitle')}
      fullWidth
      maxWidth="xs"
      testId="transfer-dialog"
    >
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            select
            label={t('ticketView.transferQueue')}
            value={queues.data ? queueId : ''}
            onChange={(e) => setQueueId(Number(e.target.value))}
            required
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'transfer-queue' } as object } }}
          >
            {(queues.data ?? []).map((queue) => (
              <MenuItem key={queue.id} value={queue.id} data-testid={`transfer-queue-${queue.id}`}>
                {queue.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('ticketView.transferUser')}
            value={users.data ? userId : ''}
            onChange={(e) => setUserId(e.target.value === '' ? '' : Number(e.target.value))}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'transfer-user' } as object } }}
          >
            <MenuItem value="" data-testid="transfer-user-none">
              <em>{t('ticketView.transferNoUser')}</em>
            </MenuItem>
            {(users.data ?? []).map((user) => (
              <MenuItem key={user.id} value={user.id} data-testid={`transfer-user-${user.id}`}>
                {user.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActionButtons
        onCancel={onClose}
        onAction={save}
        actionLabel={t('ticketView.transferSave')}
        actionTestId="transfer-save"
        disabled={queueId === '' || saving}
      />
    </DialogFrame>
  );
}
