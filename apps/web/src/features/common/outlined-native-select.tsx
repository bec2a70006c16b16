import { Box, type SxProps, type Theme } from '@mui/material';
import { type ChangeEvent, type ReactNode, useId } from 'react';
import { OutlinedArrow, OutlinedFrame } from './outlined-frame';

/**
 * A native `<select>` drawn as MUI's small outlined TextField with `select` and `native` and a shrunk
 * label, without MUI's input, select, menu and modal code (which TextField brings even for a native
 * select): for pages whose first render should stay light (the dashboard's filters; docs/web.md,
 * "Web delivery"). `value` is the selected option's value, `onChange` gets the new one; `options` are
 * `<option>` elements; `testId` goes on the `<select>` itself, as TextField's `htmlInput` slot puts it;
 * `sx` on the root (a minimum width, say).
 */
export function OutlinedNativeSelect({
  label,
  value,
  onChange,
  testId,
  sx,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  sx?: SxProps<Theme>;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <OutlinedFrame label={label} htmlFor={id} sx={sx}>
      <Box
        component="select"
        id={id}
        value={value}
        onChange={(event: ChangeEvent<HTMLSelectElement>) => onChange(event.target.value)}
        data-testid={testId}
        sx={{
          font: 'inherit',
          letterSpacing: 'inherit',
          color: 'currentColor',
          border: 0,
          boxSizing: 'content-box',
          background: 'none',
          height: '1.4375em',
          m: 0,
          display: 'block',
          minWidth: 0,
          width: '100%',
          p: '8.5px 32px 8.5px 14px',
          appearance: 'none',
          userSelect: 'none',
          cursor: 'pointer',
          borderRadius: 1,
          '&:focus': { outline: 0, borderRadius: 1 },
          '& option': { bgcolor: 'background.paper' },
        }}
      >
        {children}
      </Box>
      <OutlinedArrow />
    </OutlinedFrame>
  );
}
