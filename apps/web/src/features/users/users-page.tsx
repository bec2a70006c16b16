import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { TableCell, Typography } from '@mui/material';
import { can, type PublicUser } from '@zapdesk/shared';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { useCurrentUser } from '../auth/session-context';
import { InfiniteTable } from '../common/infinite-table';
import { ListPage, useRecordListPage } from '../common/list-page';
import { NoPermission } from '../common/no-permission';
import { RowActionsCell } from '../common/row-actions-cell';
import { usePageRows } from '../common/use-list-page';
import { useDeleteUser, useUserLoads, useUsersList } from './use-users';
import { UserLoadCell } from './user-load-cell';

/** The form (react-hook-form, zod), loaded when it is first opened. */
const UserModal = lazy(() => import('./user-modal').then((m) => ({ default: m.UserModal })));

/**
 * /users (core section 2 "Users page"): search (500 ms debounce), infinite table, add/edit modal and
 * delete with confirmation. Admins manage users and see each one's load ('Carga': open tickets over
 * capacity and a status dot, docs/api.md "Agents' load"); other profiles get the list read-only, or the
 * 'no permission' state when the server refuses the list.
 */
export function UsersPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const admin = can(me.profile, 'user-modal:editProfile');
  const page = useRecordListPage<PublicUser, { userId: number | null }>({
    ns: 'users',
    keys: { edit: 'users.editUser', delete: 'users.deleteUser' },
    searchTestId: 'users-search',
    normalize: (text) => text.trim().toLowerCase(),
    addTestId: 'add-user-button',
    addIcon: <PersonAddIcon />,
    blank: { userId: null },
    edit: (user) => ({ userId: user.id }),
    remove: useDeleteUser(),
  });
  const list = useUsersList(page.param, { silent: !admin });

  const users = usePageRows(list, 'users');
  const loads = useUserLoads(admin).data;

  if (list.error instanceof ApiError && list.error.code === 'ERR_NO_PERMISSION') return <NoPermission />;

  return (
    <ListPage
      fill
      {...page.frame}
      title={`${t('users.title')} ${list.data ? `(${list.data.pages[0]?.count ?? 0})` : ''}`}
      add={admin ? page.frame.add : undefined}
      modal={page.target && <UserModal open userId={page.target.userId} onClose={page.close} />}
    >
      {!admin && (
        <Typography variant="body2" color="text.secondary" data-testid="users-read-only">
          {t('users.readOnly')}
        </Typography>
      )}
      <InfiniteTable
        list={list}
        data={users}
        testId="users-table"
        empty={{ text: t('users.empty'), testId: 'users-empty' }}
        columns={[
          { label: t('users.table.name') },
          { label: t('users.table.email') },
          { label: t('users.table.profile'), width: 140 },
          admin && { label: t('users.table.load'), width: 150 },
          admin && { label: t('users.table.actions'), width: 120, align: 'center' },
        ]}
        row={(user) => (
          <>
            <TableCell sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{user.name}</TableCell>
            <TableCell sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{user.email}</TableCell>
            <TableCell>{t(`users.profiles.${user.profile}`)}</TableCell>
            {admin && <UserLoadCell load={loads?.find((l) => l.id === user.id)} />}
            {admin && <RowActionsCell testIdPrefix="user" {...page.actions(user)} />}
          </>
        )}
      />
    </ListPage>
  );
}
