import { FormControlLabel, Switch } from '@mui/material';
import type { ShowAllSwitchProps } from './show-all-switch';

/** The 'show all' switch as MUI draws and animates it (FormControlLabel, Switch): a chunk of its own. */
export function ShowAllSwitchMui({ label, checked, onChange }: ShowAllSwitchProps) {
  return (
    <FormControlLabel
      label={label}
      control={
        <Switch
          size="small"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          slotProps={{ input: { 'data-testid': 'show-all-switch' } as object }}
        />
      }
      sx={{ mr: 0 }}
    />
  );
}
