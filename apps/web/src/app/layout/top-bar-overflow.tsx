import MoreVertIcon from '@mui/icons-material/MoreVert';
import { IconButton } from '@mui/material';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OverflowPanel } from './top-bar-overflow-menu';

/** The menu and its panels (MUI Menu, Popover, Slider), loaded when the button is first pressed. */
const TopBarOverflowMenu = lazy(() =>
  import('./top-bar-overflow-menu').then((m) => ({ default: m.TopBarOverflowMenu })),
);

/**
 * The top bar's 'more' button on phones (under 600 px): plans and other services (admins),
 * language, colour mode, volume and refresh folded into one menu, so the bar fits 360 px.
 */
export function TopBarOverflow({ admin }: { admin: boolean }) {
  const { t } = useTranslation();
  const button = useRef<HTMLButtonElement>(null);
  const [panel, setPanel] = useState<OverflowPanel | null>(null);
  const [used, setUsed] = useState(false);
  return (
    <>
      <IconButton
        ref={button}
        color="inherit"
        aria-label={t('topbar.more')}
        aria-haspopup="menu"
        data-testid="top-bar-more"
        onClick={() => {
          setPanel('menu');
          setUsed(true);
        }}
      >
        <MoreVertIcon />
      </IconButton>
      {used && (
        <Suspense fallback={null}>
          <TopBarOverflowMenu anchor={button.current} panel={panel} onPanel={setPanel} admin={admin} />
        </Suspense>
      )}
    </>
  );
}
