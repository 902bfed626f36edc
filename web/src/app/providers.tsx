import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import ThemeProvider from '@mui/system/ThemeProvider';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { SnackbarProvider } from '../components/Snackbar';
import { createStyleCache } from './styleCache';
import { createAppTheme } from './theme';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        // A client error will not change on retry; a network blip might.
        retry: (count, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 1,
      },
      mutations: { retry: false },
    },
  });
}

export function AppProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  // Material's ThemeProvider renders exactly this for a theme without CSS variables (marking it
  // with `vars: null`), but it would also bring its CSS-variables provider into every page.
  // Built in the first render, a slice of its own, not in the task that evaluates the entry.
  const [theme] = useState(() => ({ ...createAppTheme(), vars: null }));
  const [styleCache] = useState(createStyleCache);
  return (
    <CacheProvider value={styleCache}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <QueryClientProvider client={client}>
          <SnackbarProvider>{children}</SnackbarProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </CacheProvider>
  );
}
