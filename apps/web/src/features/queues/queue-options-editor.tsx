import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Button, IconButton, Stack, TextField, Typography } from '@mui/material';
import type { QueueOption } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmationDialog } from '../common/confirmation-dialog';
import { useQueueOptionMutations } from './use-queues';

interface Draft {
  /** The option being edited, or the parent (null: top level) of a new one. */
  mode: 'add' | 'edit';
  id?: number;
  parentId: number | null;
  title: string;
  message: string;
}

interface EditorProps {
  queueId: number;
  options: QueueOption[];
}

/**
 * The chatbot options tree of a queue (document 2 section 2: edited within the queue): a nested list
 * with add child, edit and delete (deleting removes the subtree, after confirmation).
 */
export function QueueOptionsEditor({ queueId, options }: EditorProps) {
  const { t } = useTranslation();
  const { add, update, remove } = useQueueOptionMutations(queueId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [toDelete, setToDelete] = useState<QueueOption | null>(null);
  const [error, setError] = useState(false);

  const save = async () => {
    if (!draft) return;
    if (!draft.title.trim()) {
      setError(true);
      return;
    }
    const ok =
      draft.mode === 'add'
        ? await add
            .mutateAsync({
              queueId,
              parentId: draft.parentId ?? -1,
              title: draft.title,
              message: draft.message,
            })
            .catch(() => null)
        : await update
            .mutateAsync({ id: draft.id!, body: { title: draft.title, message: draft.message } })
            .catch(() => null);
    if (ok) setDraft(null);
  };

  const form = (
    <Stack
      spacing={1}
      sx={{ p: 1, border: 1, borderColor: 'divider', borderRadius: 1 }}
      data-testid="queue-option-form"
    >
      <TextField
        size="small"
        label={t('queueModal.options.title')}
        value={draft?.title ?? ''}
        autoFocus
        onChange={(e) => {
          setError(false);
          setDraft((d) => (d ? { ...d, title: e.target.value } : d));
        }}
        error={error}
        helperText={error ? t('validation.required') : undefined}
        slotProps={{ htmlInput: { 'data-testid': 'queue-option-title' } }}
      />
      <TextField
        size="small"
        label={t('queueModal.options.message')}
        value={draft?.message ?? ''}
        multiline
        minRows={2}
        onChange={(e) => setDraft((d) => (d ? { ...d, message: e.target.value } : d))}
        slotProps={{ htmlInput: { 'data-testid': 'queue-option-message' } }}
      />
      <Stack direction="row" spacing={1} justifyContent="flex-end">
        <Button size="small" onClick={() => setDraft(null)}>
          {t('common.cancel')}
        </Button>
        <Button size="small" variant="contained" onClick={save} data-testid="queue-option-save">
          {t('common.save')}
        </Button>
      </Stack>
    </Stack>
  );

  const renderLevel = (nodes: QueueOption[], parentId: number | null, depth: number) => (
    <Box component="ul" sx={{ listStyle: 'none', pl: depth ? 3 : 0, m: 0 }}>
      {nodes.map((node) => (
        <li key={node.id} data-testid={`queue-option-${node.id}`}>
          <Stack direction="row" alignItems="center" spacing={1}>
            <Typography sx={{ flex: 1 }}>
              <strong>{node.option}.</strong> {node.title}
              {node.message ? (
                <Typography component="span" variant="body2" color="text.secondary">
                  {' '}
                  — {node.message}
                </Typography>
              ) : null}
            </Typography>
            <IconButton
              size="small"
              aria-label={t('queueModal.options.addChild')}
              data-testid={`queue-option-add-child-${node.id}`}
              onClick={() => setDraft({ mode: 'add', parentId: node.id, title: '', message: '' })}
            >
              <AddIcon fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={t('queueModal.options.edit')}
              data-testid={`queue-option-edit-${node.id}`}
              onClick={() =>
                setDraft({ mode: 'edit', id: node.id, parentId, title: node.title, message: node.message })
              }
            >
              <EditIcon fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={t('queueModal.options.delete')}
              data-testid={`queue-option-delete-${node.id}`}
              onClick={() => setToDelete(node)}
            >
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Stack>
          {draft &&
          ((draft.mode === 'edit' && draft.id === node.id) ||
            (draft.mode === 'add' && draft.parentId === node.id)) ? (
            <Box sx={{ pl: 3 }}>{form}</Box>
          ) : null}
          {node.children?.length ? renderLevel(node.children, node.id, depth + 1) : null}
        </li>
      ))}
    </Box>
  );

  return (
    <Stack spacing={1} data-testid="queue-options-editor">
      <Typography variant="subtitle2">{t('queueModal.options.heading')}</Typography>
      {options.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('queueModal.options.empty')}
        </Typography>
      )}
      {renderLevel(options, null, 0)}
      {draft?.mode === 'add' && draft.parentId === null && form}
      <Box>
        <Button
          size="small"
          startIcon={<AddIcon />}
          data-testid="queue-option-add"
          onClick={() => setDraft({ mode: 'add', parentId: null, title: '', message: '' })}
        >
          {t('queueModal.options.add')}
        </Button>
      </Box>
      <ConfirmationDialog
        open={toDelete !== null}
        title={t('queueModal.options.confirmDelete', { title: toDelete?.title ?? '' })}
        message={t('queueModal.options.confirmDeleteMessage')}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete) remove.mutate(toDelete.id);
        }}
      />
    </Stack>
  );
}
