import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Portal from '@mui/material/Portal';
import MuiSnackbar from '@mui/material/Snackbar';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { SNACKBAR_MS } from '../constants';

type Severity = 'success' | 'info' | 'warning' | 'error';

interface Message {
  key: number;
  text: string;
  severity: Severity;
}

export interface Notifier {
  /** A plain message (saved, deleted, ...). */
  notify: (text: string) => void;
  /** A failure: same 6 s with a Close button, in the error colour. */
  error: (text: string) => void;
}

const SnackbarContext = createContext<Notifier | null>(null);

/** One snackbar for the whole console: a new message replaces the current one. */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<Message | null>(null);
  const [open, setOpen] = useState(false);

  const show = useCallback((text: string, severity: Severity) => {
    setMessage({ key: Date.now(), text, severity });
    setOpen(true);
  }, []);

  const notifier = useMemo<Notifier>(
    () => ({
      notify: (text) => show(text, 'success'),
      error: (text) => show(text, 'error'),
    }),
    [show],
  );

  const close = (_event?: unknown, reason?: string) => {
    if (reason === 'clickaway') return;
    setOpen(false);
  };

  return (
    <SnackbarContext.Provider value={notifier}>
      {children}
      {/* Its own node in the body: an open dialog or drawer hides the console's root from
          assistive technology, and a message shown over it must still be read and closed. */}
      <Portal>
        <MuiSnackbar
          key={message?.key}
          open={open}
          autoHideDuration={SNACKBAR_MS}
          onClose={close}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        >
          <Alert
            severity={message?.severity ?? 'info'}
            variant="filled"
            data-testid="snackbar"
            sx={{ alignItems: 'center', minWidth: 280 }}
            action={
              <Button color="inherit" size="small" onClick={() => close()}>
                Close
              </Button>
            }
          >
            {message?.text}
          </Alert>
        </MuiSnackbar>
      </Portal>
    </SnackbarContext.Provider>
  );
}

export function useSnackbar(): Notifier {
  const ctx = useContext(SnackbarContext);
  if (!ctx) throw new Error('useSnackbar needs a SnackbarProvider');
  return ctx;
}
