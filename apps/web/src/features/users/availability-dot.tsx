import { Box } from '@mui/material';
import type { PublicUser } from '@zapdesk/shared';

/**
 * A small status dot: green for 'online', amber for 'away', grey when `live` is false (no socket).
 * Decorative: the text beside it says the same.
 */
export function AvailabilityDot({
  availability,
  live = true,
}: {
  availability: PublicUser['availability'];
  live?: boolean;
}) {
  const color = !live ? 'grey.500' : availability === 'online' ? 'success.main' : 'warning.main';
  return (
    <Box
      component="span"
      aria-hidden
      data-availability={live ? availability : 'offline'}
      sx={{
        display: 'inline-block',
        width: 10,
        height: 10,
        borderRadius: '50%',
        bgcolor: color,
        border: 1,
        borderColor: 'background.paper',
        flexShrink: 0,
      }}
    />
  );
}
