import { Box, Chip, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import type { Announcement } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import type { PagedList } from '../../lib/load-more-on-scroll';
import { PagedScrollBox } from '../common/paged-scroll-box';
import { TopBarPopover } from '../common/top-bar-popover';
import { useMediaUrl } from '../ticket-view/media';
import { announcementMediaUrl } from './use-announcements';

const PRIORITY_COLOR = { 1: 'error', 2: 'warning', 3: 'default' } as const;

function AnnouncementImage({ record }: { record: Announcement }) {
  const { src } = useMediaUrl(record.mediaPath ? announcementMediaUrl(record.id) : null);
  if (!src) return null;
  return (
    <Box
      component="img"
      src={src}
      alt={record.mediaName ?? ''}
      sx={{ maxWidth: '100%', maxHeight: 160, borderRadius: 1, mt: 1 }}
    />
  );
}

interface AnnouncementsListProps {
  anchor: HTMLElement | null;
  records: Announcement[];
  /** The list's paging: the next page loads when scrolled within 100 px of the bottom. */
  paging: PagedList;
  onClose: () => void;
}

/** The announcements popover and its list (MUI Popover, Modal, List, Chip): a chunk loaded when first opened. */
export function AnnouncementsList({ anchor, records, paging, onClose }: AnnouncementsListProps) {
  const { t } = useTranslation();
  return (
    <TopBarPopover anchor={anchor} onClose={onClose}>
      <PagedScrollBox
        paging={paging}
        rows={records.length}
        sx={{ width: 360, maxWidth: '100%', maxHeight: 480, overflow: 'auto' }}
        testId="announcements-popover"
      >
        <Typography variant="subtitle1" sx={{ px: 2, pt: 1.5 }}>
          {t('announcements.popover.title')}
        </Typography>
        {records.length === 0 && !paging.hasNextPage ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {t('announcements.popover.empty')}
          </Typography>
        ) : (
          <List dense>
            {records.map((record) => (
              <ListItem key={record.id} divider data-testid={`announcement-item-${record.id}`}>
                <ListItemText
                  primary={
                    <Stack direction="row" spacing={1} alignItems="center">
                      <strong>{record.title}</strong>
                      <Chip
                        size="small"
                        color={PRIORITY_COLOR[record.priority as 1 | 2 | 3] ?? 'default'}
                        label={t(`announcements.priority.${record.priority}`)}
                      />
                    </Stack>
                  }
                  secondary={
                    <>
                      <Typography
                        component="span"
                        variant="body2"
                        sx={{ display: 'block', whiteSpace: 'pre-wrap' }}
                      >
                        {record.text}
                      </Typography>
                      <Typography component="span" variant="caption" color="text.secondary">
                        {formatDateTime(record.createdAt)}
                      </Typography>
                      <AnnouncementImage record={record} />
                    </>
                  }
                  slotProps={{ secondary: { component: 'div' } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </PagedScrollBox>
    </TopBarPopover>
  );
}
