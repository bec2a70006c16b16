import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Box, type SxProps, type Theme } from '@mui/material';
import type { ReactNode } from 'react';

/** The drop-down arrow of MUI's outlined select, at its place (right 7 px, centred). */
export function OutlinedArrow() {
  return (
    <ArrowDropDownIcon
      sx={{
        position: 'absolute',
        right: 7,
        top: 'calc(50% - .5em)',
        pointerEvents: 'none',
        color: 'action.active',
      }}
    />
  );
}

/**
 * MUI's small outlined field with a shrunk label, drawn in plain elements styled by the theme (no
 * MUI input, select, menu or modal code: docs/web.md, "Web delivery"): the root (`sx` added to it),
 * the label in the outline's notch (`labelId`; `htmlFor` ties it to a form control), `children` (the
 * control, which takes MUI's small input padding, and its arrow) and the outline, which darkens on
 * hover and turns to the primary colour, 2 px wide, while the control has the focus (as does the
 * label).
 */
export function OutlinedFrame({
  label,
  labelId,
  htmlFor,
  sx,
  children,
  testId,
  onPointerEnter,
}: {
  label: string;
  labelId?: string;
  htmlFor?: string;
  sx?: SxProps<Theme>;
  children: ReactNode;
  testId?: string;
  onPointerEnter?: () => void;
}) {
  return (
    <Box
      data-testid={testId}
      onPointerEnter={onPointerEnter}
      sx={[
        {
          display: 'inline-flex',
          flexDirection: 'column',
          position: 'relative',
          verticalAlign: 'top',
          typography: 'body1',
          lineHeight: '1.4375em',
          '&:focus-within > label': { color: 'primary.main' },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <Box
        component="label"
        id={labelId}
        htmlFor={htmlFor}
        sx={{
          position: 'absolute',
          left: 0,
          top: 0,
          zIndex: 1,
          transform: 'translate(14px, -9px) scale(0.75)',
          transformOrigin: 'top left',
          maxWidth: 'calc(133% - 32px)',
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          color: 'text.secondary',
          userSelect: 'none',
        }}
      >
        {label}
      </Box>
      <Box
        sx={{
          position: 'relative',
          borderRadius: 1,
          color: 'text.primary',
          cursor: 'pointer',
          '&:hover fieldset': { borderColor: 'text.primary' },
          '&:focus-within fieldset, &:focus-within:hover fieldset': {
            borderColor: 'primary.main',
            borderWidth: 2,
          },
        }}
      >
        {children}
        <Box
          component="fieldset"
          aria-hidden
          sx={{
            position: 'absolute',
            inset: '-5px 0 0 0',
            m: 0,
            px: 1,
            py: 0,
            textAlign: 'left',
            pointerEvents: 'none',
            borderRadius: 'inherit',
            border: 1,
            borderColor: (theme) =>
              theme.palette.mode === 'light' ? 'rgba(0, 0, 0, 0.23)' : 'rgba(255, 255, 255, 0.23)',
            overflow: 'hidden',
            minWidth: '0%',
          }}
        >
          <Box
            component="legend"
            sx={{
              float: 'unset',
              width: 'auto',
              overflow: 'hidden',
              display: 'block',
              p: 0,
              height: 11,
              fontSize: '0.75em',
              visibility: 'hidden',
              maxWidth: '100%',
              whiteSpace: 'nowrap',
            }}
          >
            <Box
              component="span"
              sx={{ px: '5px', display: 'inline-block', opacity: 0, visibility: 'visible' }}
            >
              {label}
            </Box>
          </Box>
        </Box>
      </Box>
    </Box>
  );
}
