import { Box } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useFirstPageSettled } from '../../lib/first-page';
import type { ShowAllSwitchProps } from './show-all-switch-mui';

export type { ShowAllSwitchProps } from './show-all-switch-mui';

/** MUI's switch (ripple, hover, motion), fetched once the first page is usable. */
const ShowAllSwitchMui = lazy(() =>
  import('./show-all-switch-mui').then((m) => ({ default: m.ShowAllSwitchMui })),
);

/** MUI's `shadows[1]`, the switch thumb's shadow. */
const THUMB_SHADOW =
  '0px 2px 1px -1px rgba(0,0,0,0.2),0px 1px 1px 0px rgba(0,0,0,0.14),0px 1px 3px 0px rgba(0,0,0,0.12)';

/**
 * MUI's small labelled switch drawn in plain elements with the theme's colours, around a real
 * checkbox (same test id, same change), shown while MUI's switch is on its way.
 */
function PlainSwitch({ label, checked, onChange }: ShowAllSwitchProps) {
  return (
    <Box
      component="label"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        cursor: 'pointer',
        verticalAlign: 'middle',
        WebkitTapHighlightColor: 'transparent',
        ml: '-11px',
        mr: 0,
      }}
    >
      <Box
        component="span"
        sx={{
          display: 'inline-flex',
          width: 40,
          height: 24,
          overflow: 'hidden',
          p: '7px',
          boxSizing: 'border-box',
          position: 'relative',
          flexShrink: 0,
          zIndex: 0,
          verticalAlign: 'middle',
        }}
      >
        <Box
          component="span"
          sx={(theme) => ({
            position: 'absolute',
            top: 0,
            left: 0,
            zIndex: 1,
            p: '4px',
            borderRadius: '50%',
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            color: checked
              ? 'primary.main'
              : theme.palette.mode === 'light'
                ? theme.palette.common.white
                : theme.palette.grey[300],
            transform: checked ? 'translateX(16px)' : 'none',
          })}
        >
          <Box
            component="input"
            type="checkbox"
            checked={checked}
            onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
            data-testid="show-all-switch"
            sx={{
              position: 'absolute',
              opacity: 0,
              top: 0,
              left: '-100%',
              width: '300%',
              height: '100%',
              m: 0,
              p: 0,
              zIndex: 1,
              cursor: 'inherit',
            }}
          />
          <Box
            component="span"
            sx={{
              width: 16,
              height: 16,
              borderRadius: '50%',
              bgcolor: 'currentColor',
              boxShadow: THUMB_SHADOW,
            }}
          />
        </Box>
        <Box
          component="span"
          sx={(theme) => ({
            height: '100%',
            width: '100%',
            borderRadius: '7px',
            zIndex: -1,
            bgcolor: checked
              ? 'primary.main'
              : theme.palette.mode === 'light'
                ? theme.palette.common.black
                : theme.palette.common.white,
            opacity: checked ? 0.5 : theme.palette.mode === 'light' ? 0.38 : 0.3,
          })}
        />
      </Box>
      <Box component="span" sx={{ typography: 'body1' }}>
        {label}
      </Box>
    </Box>
  );
}

/**
 * The tickets manager's 'show all' switch (admins): the first render draws it in plain elements
 * (a working checkbox), and MUI's switch replaces it once the first page is usable
 * (lib/first-page.ts) and its chunk has arrived, so the list's first render carries no
 * FormControlLabel or Switch code.
 */
export function ShowAllSwitch(props: ShowAllSwitchProps) {
  if (!useFirstPageSettled()) return <PlainSwitch {...props} />;
  return (
    <Suspense fallback={<PlainSwitch {...props} />}>
      <ShowAllSwitchMui {...props} />
    </Suspense>
  );
}
