import { FormControlLabel, Switch } from '@mui/material';

/** The 'show all' switch's props: its label, whether it is on, and what to call with the new state. */
export interface ShowAllSwitchProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

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
