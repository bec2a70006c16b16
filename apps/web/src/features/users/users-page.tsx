import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SearchIcon from '@mui/icons-material/Search';
import {
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
import { can, LIST_LOAD_THRESHOLD_PX, type PublicUser, SEARCH_DEBOUNCE_MS } from '@zapdesk/shared';
import { forwardRef, type HTMLAttributes, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { type TableComponents, TableVirtuoso } from 'react-virtuoso';
import { ApiError } from '../../lib/api';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useCurrentUser } from '../auth/session-context';
import { ConfirmationDialog } from '../common/confirmation-dialog';
import { NoPermission } from '../common/no-permission';
import { useDeleteUser, useUsersList } from './use-users';
import { UserModal } from './user-modal';

const tableComponents: TableComponents<PublicUser> = {
  Scroller: forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>((props, ref) => (
    <TableContainer {...props} ref={ref} />
  )),
  Table: (props) => <Table {...props} size="small" stickyHeader sx={{ tableLayout: 'fixed' }} />,
  TableHead: forwardRef<HTMLTableSectionElement>((props, ref) => <TableHead {...props} ref={ref} />),
  TableRow: ({ item: _item, ...props }) => <TableRow hover {...props} />,
  TableBody: forwardRef<HTMLTableSectionElement>((props, ref) => <TableBody {...props} ref={ref} />),
};

/**
 * /users (core section 2 "Users page"): search (500 ms debounce), infinite table, add/edit modal and
 * delete with confirmation. Admins manage users; other profiles get the list read-only, or the
 * 'no permission' state when the server refuses the list.
 */
export function UsersPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const admin = can(me.profile, 'user-modal:editProfile');
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const list = useUsersList(searchParam, { silent: !admin });
  const remove = useDeleteUser();
  const [modal, setModal] = useState<{ userId: number | null } | null>(null);
  const [toDelete, setToDelete] = useState<PublicUser | null>(null);

  const users = useMemo(() => list.data?.pages.flatMap((p) => p.users) ?? [], [list.data]);
  const loadMore = () => {
    if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };

  if (list.error instanceof ApiError && list.error.code === 'ERR_NO_PERMISSION') return <NoPermission />;

  return (
    <Stack spacing={2} sx={{ height: 'calc(100vh - 112px)' }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('users.title')} {list.data ? `(${list.data.pages[0]?.count ?? 0})` : ''}
        </Typography>
        <TextField
          size="small"
          placeholder={t('users.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': t('users.search'), 'data-testid': 'users-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon color="action" />
                </InputAdornment>
              ),
            },
          }}
        />
        {admin && (
          <Button
            variant="contained"
            startIcon={<PersonAddIcon />}
            onClick={() => setModal({ userId: null })}
            data-testid="add-user-button"
          >
            {t('users.add')}
          </Button>
        )}
      </Stack>
      {!admin && (
        <Typography variant="body2" color="text.secondary" data-testid="users-read-only">
          {t('users.readOnly')}
        </Typography>
      )}
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 300 }}>
        <TableVirtuoso
          data={users}
          components={tableComponents}
          endReached={loadMore}
          increaseViewportBy={{ top: 0, bottom: LIST_LOAD_THRESHOLD_PX }}
          data-testid="users-table"
          fixedHeaderContent={() => (
            <TableRow sx={{ bgcolor: 'background.paper' }}>
              <TableCell>{t('users.table.name')}</TableCell>
              <TableCell>{t('users.table.email')}</TableCell>
              <TableCell width={140}>{t('users.table.profile')}</TableCell>
              {admin && (
                <TableCell width={120} align="center">
                  {t('users.table.actions')}
                </TableCell>
              )}
            </TableRow>
          )}
          itemContent={(_index, user) => (
            <>
              <TableCell sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{user.name}</TableCell>
              <TableCell sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{user.email}</TableCell>
              <TableCell>{t(`users.profiles.${user.profile}`)}</TableCell>
              {admin && (
                <TableCell align="center">
                  <IconButton
                    size="small"
                    aria-label={t('users.editUser', { name: user.name })}
                    data-testid={`user-edit-${user.id}`}
                    onClick={() => setModal({ userId: user.id })}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('users.deleteUser', { name: user.name })}
                    data-testid={`user-delete-${user.id}`}
                    onClick={() => setToDelete(user)}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              )}
            </>
          )}
        />
      </Paper>
      {list.isSuccess && users.length === 0 && (
        <Typography color="text.secondary" data-testid="users-empty">
          {t('users.empty')}
        </Typography>
      )}
      {modal && <UserModal open userId={modal.userId} onClose={() => setModal(null)} />}
      <ConfirmationDialog
        open={toDelete !== null}
        title={t('users.confirmDelete.title', { name: toDelete?.name ?? '' })}
        message={t('users.confirmDelete.message')}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          const target = toDelete;
          if (!target) return;
          remove.mutate(target.id, { onSuccess: () => toast.success(t('users.toasts.deleted')) });
        }}
      />
    </Stack>
  );
}
