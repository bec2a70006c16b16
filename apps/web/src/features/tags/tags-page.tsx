import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import {
  Chip,
  IconButton,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import { can, SEARCH_DEBOUNCE_MS, type TagWithCount } from '@zapdesk/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { loadMoreOnScroll } from '../../lib/load-more-on-scroll';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useCurrentUser } from '../auth/session-context';
import { ConfirmationDialog } from '../common/confirmation-dialog';
import { ListPageHeader } from '../common/list-page-header';
import { TagModal } from './tag-modal';
import { useDeleteTag, useTagsList } from './use-tags';

/**
 * /tags (document 2 section 2): searchable table (500 ms debounce, infinite scroll within 100 px)
 * of name chip, ticket count, kanban flag (admins), actions; add/edit modal; delete with confirmation.
 */
export function TagsPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const admin = can(me.profile, 'user-modal:editProfile');
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useTagsList(searchParam);
  const remove = useDeleteTag();
  const [modal, setModal] = useState<{ tagId: number | null } | null>(null);
  const [toDelete, setToDelete] = useState<TagWithCount | null>(null);
  const tags = useMemo(() => list.data?.pages.flatMap((p) => p.tags) ?? [], [list.data]);

  const onScroll = loadMoreOnScroll(list);

  return (
    <Stack spacing={2} sx={{ height: 'calc(100vh - 112px)' }}>
      <ListPageHeader
        title={t('tags.title')}
        search={search}
        onSearch={setSearch}
        searchLabel={t('tags.search')}
        searchTestId="tags-search"
        addLabel={t('tags.add')}
        addTestId="add-tag-button"
        onAdd={() => setModal({ tagId: null })}
      />
      <TableContainer component={Paper} variant="outlined" sx={{ flex: 1 }} onScroll={onScroll}>
        <Table size="small" stickyHeader data-testid="tags-table">
          <TableHead>
            <TableRow>
              <TableCell>{t('tags.table.name')}</TableCell>
              <TableCell width={160} align="center">
                {t('tags.table.tickets')}
              </TableCell>
              {admin && (
                <TableCell width={120} align="center">
                  {t('tags.table.kanban')}
                </TableCell>
              )}
              <TableCell width={120} align="center">
                {t('tags.table.actions')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {tags.map((tag) => (
              <TableRow key={tag.id} hover data-testid={`tag-row-${tag.id}`}>
                <TableCell>
                  <Chip label={tag.name} size="small" sx={{ bgcolor: tag.color, color: '#fff' }} />
                </TableCell>
                <TableCell align="center">{tag.ticketsCount}</TableCell>
                {admin && (
                  <TableCell align="center">{tag.kanban === 1 ? t('common.yes') : t('common.no')}</TableCell>
                )}
                <TableCell align="center">
                  <IconButton
                    size="small"
                    aria-label={t('tags.edit', { name: tag.name })}
                    data-testid={`tag-edit-${tag.id}`}
                    onClick={() => setModal({ tagId: tag.id })}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('tags.delete', { name: tag.name })}
                    data-testid={`tag-delete-${tag.id}`}
                    onClick={() => setToDelete(tag)}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {modal && <TagModal open tagId={modal.tagId} onClose={() => setModal(null)} />}
      <ConfirmationDialog
        open={toDelete !== null}
        title={t('tags.confirmDelete.title', { name: toDelete?.name ?? '' })}
        message={t('tags.confirmDelete.message')}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete)
            remove.mutate(toDelete.id, { onSuccess: () => toast.success(t('tags.toasts.deleted')) });
        }}
      />
    </Stack>
  );
}
