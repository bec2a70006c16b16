import { Autocomplete, Stack, TextField } from '@mui/material';
import type { Chat } from '@zapdesk/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useCurrentUser } from '../auth/session-context';
import { FormDialog } from '../common/form-dialog';
import { useUserOptions } from '../tickets/use-tickets';
import { useSaveChat } from './use-chats';

interface ChatModalProps {
  /** The chat to edit (its owner only), or null for a new one. */
  chat: Chat | null;
  onClose: () => void;
  onSaved: (chat: Chat) => void;
}

type Option = { id: number; name: string };

/**
 * Add or edit a chat (document 2 section 5 "Chat"): a title and at least one other user of the
 * company. Without a title the toast chat.toasts.fillTitle shows; without a user chat.toasts.fillUser.
 */
export function ChatModal({ chat, onClose, onSaved }: ChatModalProps) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const options = useUserOptions(true);
  const [title, setTitle] = useState(chat?.title ?? '');
  const [selected, setSelected] = useState<Option[]>(
    chat?.users.filter((u) => u.userId !== me.id).map((u) => ({ id: u.userId, name: u.user.name })) ?? [],
  );
  const save = useSaveChat();
  const choices = (options.data ?? []).filter((u) => u.id !== me.id);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) {
      toast.error(t('chat.toasts.fillTitle'));
      return;
    }
    if (selected.length === 0) {
      toast.error(t('chat.toasts.fillUser'));
      return;
    }
    save.mutate(
      { id: chat?.id, body: { title: title.trim(), users: selected.map((u) => u.id) } },
      { onSuccess: onSaved },
    );
  };

  return (
    <FormDialog
      onClose={onClose}
      title={chat ? t('chat.modal.editTitle') : t('chat.modal.addTitle')}
      titleId="chat-modal-title"
      maxWidth="sm"
      onSubmit={submit}
      formTestId="chat-form"
      editing={chat !== null}
      submitTestId="chat-save"
      pending={save.isPending}
    >
      <Stack spacing={2}>
        <TextField
          label={t('chat.modal.title')}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'chat-title-input', maxLength: 200 } }}
          autoFocus
          fullWidth
        />
        <Autocomplete
          multiple
          options={choices}
          value={selected}
          onChange={(_e, value) => setSelected(value)}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          filterSelectedOptions
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('chat.modal.users')}
              inputProps={{ ...params.inputProps, 'data-testid': 'chat-users-input' }}
            />
          )}
        />
      </Stack>
    </FormDialog>
  );
}
