import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import {
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useTasks } from './use-tasks';

/** /todolist: a to-do list kept only in this browser (add, edit, delete; blank text ignored). */
export function TodoListPage() {
  const { t } = useTranslation();
  const { tasks, add, update, remove } = useTasks();
  const [text, setText] = useState('');
  const [editingId, setEditingId] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const done = editingId ? update(editingId, text) : add(text);
    if (done) {
      setText('');
      setEditingId(null);
    }
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <Typography variant="h5" component="h1">
        {t('todolist.title')}
      </Typography>
      <Stack component="form" direction="row" spacing={1} onSubmit={submit} aria-label={t('todolist.title')}>
        <TextField
          size="small"
          fullWidth
          label={t('todolist.input')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'todo-input' } }}
        />
        <Button type="submit" variant="contained" data-testid="todo-submit">
          {editingId ? t('common.save') : t('common.add')}
        </Button>
      </Stack>
      <Paper variant="outlined">
        {tasks.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {t('todolist.empty')}
          </Typography>
        ) : (
          <List aria-label={t('todolist.listLabel')} data-testid="todo-list">
            {tasks.map((task) => (
              <ListItem
                key={task.id}
                divider
                data-testid="todo-item"
                secondaryAction={
                  <>
                    <IconButton
                      aria-label={t('todolist.editTask', { text: task.text })}
                      onClick={() => {
                        setEditingId(task.id);
                        setText(task.text);
                      }}
                    >
                      <EditIcon />
                    </IconButton>
                    <IconButton
                      aria-label={t('todolist.deleteTask', { text: task.text })}
                      onClick={() => {
                        remove(task.id);
                        if (editingId === task.id) {
                          setEditingId(null);
                          setText('');
                        }
                      }}
                    >
                      <DeleteOutlineIcon />
                    </IconButton>
                  </>
                }
              >
                <ListItemText
                  primary={task.text}
                  secondary={t('todolist.updatedAt', { date: formatDateTime(task.updatedAt) })}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
    </Stack>
  );
}
