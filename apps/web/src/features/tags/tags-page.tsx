import { Chip, TableCell, TableRow } from '@mui/material';
import { can, type TagWithCount } from '@zapdesk/shared';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { loadMoreOnScroll } from '../../lib/load-more-on-scroll';
import { useCurrentUser } from '../auth/session-context';
import { DataTable } from '../common/data-table';
import { ListPage, useRecordListPage } from '../common/list-page';
import { RowActionsCell } from '../common/row-actions-cell';
import { usePageRows } from '../common/use-list-page';
import { useDeleteTag, useTagsList } from './use-tags';

/** The form (react-hook-form, zod), loaded when it is first opened. */
const TagModal = lazy(() => import('./tag-modal').then((m) => ({ default: m.TagModal })));

/**
 * /tags (document 2 section 2): searchable table (500 ms debounce, infinite scroll within 100 px)
 * of name chip, ticket count, kanban flag (admins), actions; add/edit modal; delete with confirmation.
 */
export function TagsPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const admin = can(me.profile, 'user-modal:editProfile');
  const page = useRecordListPage<TagWithCount, { tagId: number | null }>({
    ns: 'tags',
    searchTestId: 'tags-search',
    addTestId: 'add-tag-button',
    blank: { tagId: null },
    edit: (tag) => ({ tagId: tag.id }),
    remove: useDeleteTag(),
  });
  const list = useTagsList(page.param);
  const tags = usePageRows(list, 'tags');

  const onScroll = loadMoreOnScroll(list);

  return (
    <ListPage
      fill
      {...page.frame}
      modal={page.target && <TagModal open tagId={page.target.tagId} onClose={page.close} />}
    >
      <DataTable
        testId="tags-table"
        stickyHeader
        sx={{ flex: 1 }}
        onScroll={onScroll}
        columns={[
          { label: t('tags.table.name') },
          { label: t('tags.table.tickets'), width: 160, align: 'center' },
          admin && { label: t('tags.table.kanban'), width: 120, align: 'center' },
          { label: t('tags.table.actions'), width: 120, align: 'center' },
        ]}
      >
        {tags.map((tag) => (
          <TableRow key={tag.id} hover data-testid={`tag-row-${tag.id}`}>
            <TableCell>
              <Chip label={tag.name} size="small" sx={{ bgcolor: tag.color, color: '#fff' }} />
            </TableCell>
            <TableCell align="center">{tag.ticketsCount}</TableCell>
            {admin && (
              <TableCell align="center">{tag.kanban === 1 ? t('common.yes') : t('common.no')}</TableCell>
            )}
            <RowActionsCell testIdPrefix="tag" {...page.actions(tag)} />
          </TableRow>
        ))}
      </DataTable>
    </ListPage>
  );
}
