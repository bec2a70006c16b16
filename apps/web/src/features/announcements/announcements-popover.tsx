import CampaignIcon from '@mui/icons-material/Campaign';
import {
  Badge,
  Box,
  Chip,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Popover,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import type { Announcement } from '@zapdesk/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useCurrentUser } from '../auth/session-context';
import { useMediaUrl } from '../ticket-view/media';
import {
  announcementMediaUrl,
  markAnnouncementsRead,
  readAnnouncementIds,
  useAnnouncementsList,
} from './use-announcements';

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

/**
 * The top bar's announcements (core section 2 "Top bar"): the active announcements, highest
 * priority then newest first, with the count of those this user has not read yet in this browser.
 * Opening the popover marks the listed ones read. Live through `company-{id}-announcement`.
 */
export function AnnouncementsPopover() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [readIds, setReadIds] = useState(() => readAnnouncementIds(me.id));
  const list = useAnnouncementsList('');
  const records = useMemo(
    () => (list.data?.pages.flatMap((p) => p.records) ?? []).filter((r) => r.status),
    [list.data],
  );
  const unread = records.filter((r) => !readIds.has(r.id)).length;

  const open = (target: HTMLElement) => {
    setAnchor(target);
    const ids = records.map((r) => r.id);
    markAnnouncementsRead(me.id, ids);
    setReadIds(new Set(ids));
  };

  return (
    <>
      <Tooltip title={t('announcements.popover.title')}>
        <IconButton
          color="inherit"
          aria-label={t('announcements.popover.title')}
          data-testid="announcements-button"
          onClick={(e) => open(e.currentTarget)}
        >
          <Badge badgeContent={unread} color="secondary" data-testid="announcements-count">
            <CampaignIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ width: 360, maxHeight: 480, overflow: 'auto' }} data-testid="announcements-popover">
          <Typography variant="subtitle1" sx={{ px: 2, pt: 1.5 }}>
            {t('announcements.popover.title')}
          </Typography>
          {records.length === 0 ? (
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
        </Box>
      </Popover>
    </>
  );
}
