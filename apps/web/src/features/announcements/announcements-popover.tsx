import CampaignIcon from '@mui/icons-material/Campaign';
import { Badge, IconButton } from '@mui/material';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../auth/session-context';
import { countLabel } from '../common/count-label';
import { LazyTooltip } from '../common/lazy-tooltip';
import { markAnnouncementsRead, readAnnouncementIds, useAnnouncementsList } from './use-announcements';

/** The popover and its list (MUI Popover, List, Chip; the images' loader), loaded when it first opens. */
const AnnouncementsList = lazy(() =>
  import('./announcements-list').then((m) => ({ default: m.AnnouncementsList })),
);

/**
 * The top bar's announcements (core section 2 "Top bar"): the active announcements, highest
 * priority then newest first, with the count of those this user has not read yet in this browser.
 * Opening the popover marks the listed ones read, and those of each page it loads when scrolled
 * within 100 px of its bottom. Live through `company-{id}-announcement`.
 */
export function AnnouncementsPopover() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [used, setUsed] = useState(false);
  const [readIds, setReadIds] = useState(() => readAnnouncementIds(me.id));
  const list = useAnnouncementsList('');
  const records = useMemo(
    () => (list.data?.pages.flatMap((p) => p.records) ?? []).filter((r) => r.status),
    [list.data],
  );
  const unread = records.filter((r) => !readIds.has(r.id)).length;

  useEffect(() => {
    if (!anchor) return;
    const ids = records.map((r) => r.id);
    markAnnouncementsRead(me.id, ids);
    setReadIds(new Set(ids));
  }, [anchor, records, me.id]);

  const open = (target: HTMLElement) => {
    setAnchor(target);
    setUsed(true);
  };

  return (
    <>
      <LazyTooltip title={t('announcements.popover.title')}>
        <IconButton
          color="inherit"
          aria-label={countLabel(t('announcements.popover.title'), unread)}
          data-testid="announcements-button"
          onClick={(e) => open(e.currentTarget)}
        >
          <Badge badgeContent={unread} color="secondary" data-testid="announcements-count">
            <CampaignIcon />
          </Badge>
        </IconButton>
      </LazyTooltip>
      {used && (
        <Suspense fallback={null}>
          <AnnouncementsList
            anchor={anchor}
            records={records}
            paging={list}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      )}
    </>
  );
}
