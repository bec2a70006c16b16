import { Box, ButtonBase, type SxProps, type Theme } from '@mui/material';
import type { KeyboardEvent, ReactElement, ReactNode } from 'react';

/** One tab of {@link PlainTabs}. */
export interface PlainTab<T extends string> {
  value: T;
  label: ReactNode;
  /** Shown before the label (MUI's `iconPosition="start"`). */
  icon?: ReactElement;
  testId: string;
}

interface PlainTabsProps<T extends string> {
  value: T;
  onChange: (value: T) => void;
  tabs: PlainTab<T>[];
  /** Styles of the tab bar (MUI Tabs' `sx`). */
  sx?: SxProps<Theme>;
  /** Extra styles of every tab (MUI Tab's `sx`). */
  tabSx?: SxProps<Theme>;
}

/** The keys that move the focus along the tab bar, as MUI's Tabs handles them. */
const STEP: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/**
 * Full-width tabs drawn and driven as MUI's `<Tabs variant="fullWidth">` with `<Tab>`s (same
 * styles, ripple, sliding primary indicator, tablist/tab roles, roving focus with the arrow, Home and
 * End keys; a click selects), for the tickets page's always-visible tab bars, without MUI's Tabs
 * module (scroll buttons, scrollbar measuring, indicator measuring): the tabs share the width
 * equally, so the indicator's place is known without measuring.
 */
export function PlainTabs<T extends string>({ value, onChange, tabs, sx, tabSx }: PlainTabsProps<T>) {
  const index = Math.max(
    0,
    tabs.findIndex((tab) => tab.value === value),
  );
  const width = 100 / tabs.length;

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const step = STEP[event.key];
    if (!step) return;
    const list = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')];
    const current = list.indexOf(document.activeElement as HTMLElement);
    if (current < 0) return;
    event.preventDefault();
    list[step(current, list.length)]?.focus();
  };

  return (
    <Box sx={[{ overflow: 'hidden', minHeight: 48, display: 'flex' }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <Box
        sx={{
          position: 'relative',
          display: 'inline-block',
          flex: '1 1 auto',
          whiteSpace: 'nowrap',
          overflowX: 'hidden',
          width: '100%',
        }}
      >
        <Box role="tablist" onKeyDown={onKeyDown} sx={{ display: 'flex' }}>
          {tabs.map((tab) => {
            const selected = tab.value === value;
            return (
              <ButtonBase
                key={tab.value}
                role="tab"
                aria-selected={selected}
                tabIndex={selected ? 0 : -1}
                focusRipple
                data-testid={tab.testId}
                onClick={() => {
                  if (!selected) onChange(tab.value);
                }}
                sx={[
                  (theme) => ({
                    ...theme.typography.button,
                    lineHeight: 1.25,
                    minWidth: 90,
                    maxWidth: 'none',
                    position: 'relative',
                    minHeight: tab.icon ? 72 : 48,
                    flexShrink: 1,
                    flexGrow: 1,
                    flexBasis: 0,
                    flexDirection: 'row',
                    padding: tab.icon ? '9px 16px' : '12px 16px',
                    overflow: 'hidden',
                    whiteSpace: 'normal',
                    textAlign: 'center',
                    color: selected ? 'primary.main' : 'text.secondary',
                    '& > .MuiSvgIcon-root': { mr: 1 },
                  }),
                  ...(Array.isArray(tabSx) ? tabSx : [tabSx]),
                ]}
              >
                {tab.icon}
                {tab.label}
              </ButtonBase>
            );
          })}
        </Box>
        <Box
          component="span"
          sx={(theme) => ({
            position: 'absolute',
            height: 2,
            bottom: 0,
            left: `${index * width}%`,
            width: `${width}%`,
            bgcolor: 'primary.main',
            transition: theme.transitions.create('all'),
          })}
        />
      </Box>
    </Box>
  );
}
