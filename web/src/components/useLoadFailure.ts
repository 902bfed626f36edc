import { useEffect } from 'react';
import { errorText } from '../api/client';
import { useSnackbar } from './Snackbar';

/**
 * Shows 'Failed to load {name}: {error}' in the snackbar when a load fails; a poll that keeps
 * failing with the same error says it once.
 */
export function useLoadFailure(error: unknown, name: string): void {
  const snackbar = useSnackbar();
  const text = error ? `Failed to load ${name}: ${errorText(error)}` : '';
  useEffect(() => {
    if (text) snackbar.error(text);
  }, [text, snackbar]);
}
