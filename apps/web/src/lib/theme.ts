/** The MUI theme (document 3 "Theme"): light or dark, with the MUI locale of the UI language. */

import { enUS, esES, ptBR } from '@mui/material/locale';
import { createTheme, type Theme } from '@mui/material/styles';
import type { Language } from '@zapdesk/shared';

export type ColorMode = 'light' | 'dark';

const MUI_LOCALES = { pt: ptBR, en: enUS, es: esES } as const;

/**
 * Builds the theme for a colour mode and language. On phones (under 600 px, MUI's `sm`) every
 * dialog is drawn full-screen, as MUI's `fullScreen` draws it, without a media-query hook in each.
 */
export function createAppTheme(mode: ColorMode, language: Language): Theme {
  return createTheme(
    {
      palette: {
        mode,
        primary: { main: mode === 'light' ? '#00796b' : '#4db6ac' },
        secondary: { main: '#2576d2' },
        background: mode === 'light' ? { default: '#f4f6f8', paper: '#ffffff' } : {},
      },
      shape: { borderRadius: 8 },
      components: {
        MuiButton: { defaultProps: { disableElevation: true } },
        MuiDialog: {
          styleOverrides: {
            paper: ({ theme }) => ({
              [theme.breakpoints.down('sm')]: {
                margin: 0,
                width: '100%',
                maxWidth: '100%',
                height: '100%',
                maxHeight: 'none',
                borderRadius: 0,
              },
            }),
          },
        },
      },
    },
    MUI_LOCALES[language],
  );
}
