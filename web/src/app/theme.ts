import { createTheme } from '@mui/material/styles';
import type {} from '@mui/x-data-grid/themeAugmentation';

export const DRAWER_WIDTH = 248;

/** The console's theme; built on first use, not while the entry's modules load. */
export function createAppTheme() {
  return createTheme({
    palette: {
      primary: { main: '#1565c0', light: '#5e92f3', dark: '#003c8f', contrastText: '#fff' },
      secondary: { main: '#00838f' },
      // Darker than MUI's orange so warning text reaches 4.5:1 on white (5.0:1).
      warning: { main: '#b45309' },
      background: { default: '#f4f6f9', paper: '#ffffff' },
      text: { primary: '#1c2434', secondary: '#5b6475' },
      divider: '#e3e7ee',
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      fontSize: 14,
      h4: { fontWeight: 600 },
      h5: { fontWeight: 600, fontSize: '1.35rem' },
      h6: { fontWeight: 600, fontSize: '1.05rem' },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiCard: { defaultProps: { variant: 'outlined' } },
      MuiPaper: { styleOverrides: { outlined: { borderColor: '#e3e7ee' } } },
      MuiTextField: { defaultProps: { size: 'small', fullWidth: true } },
      MuiFormControl: { defaultProps: { size: 'small' } },
      MuiAutocomplete: { defaultProps: { size: 'small' } },
      MuiAppBar: { defaultProps: { elevation: 0 } },
      MuiTab: {
        styleOverrides: { root: { textTransform: 'none', fontWeight: 600, minHeight: 44 } },
      },
      MuiTabs: { styleOverrides: { root: { minHeight: 44 } } },
      MuiListItemButton: {
        styleOverrides: {
          root: {
            borderRadius: 6,
            '&.Mui-selected': { backgroundColor: 'rgba(21, 101, 192, 0.1)', color: '#1565c0' },
            '&.Mui-selected .MuiListItemIcon-root': { color: '#1565c0' },
          },
        },
      },
      MuiListItemIcon: { styleOverrides: { root: { minWidth: 36 } } },
      MuiDataGrid: {
        styleOverrides: {
          root: { border: 'none', '--DataGrid-containerBackground': '#f7f9fc' },
          columnHeaderTitle: { fontWeight: 600 },
          row: { cursor: 'pointer' },
          cell: { '&:focus, &:focus-within': { outline: 'none' } },
        },
      },
    },
  });
}
