import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState, type ReactNode } from 'react';

export interface ConfirmDialogProps {
  open: boolean;
  title?: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A word the user must type (case-insensitive) before confirming, e.g. 'delete'. */
  requiredWord?: string;
  requiredWordLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function deleteConfirmMessage(name: string): string {
  return `Are you sure you want to delete this ${name}? This action cannot be undone.`;
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel = "I'm Sure",
  cancelLabel = 'Cancel',
  requiredWord,
  requiredWordLabel,
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const wordOk = !requiredWord || typed.trim().toLowerCase() === requiredWord.toLowerCase();
  const cancel = () => {
    setTyped('');
    onCancel();
  };
  const confirm = () => {
    setTyped('');
    onConfirm();
  };
  return (
    <Dialog open={open} onClose={cancel} maxWidth="xs" fullWidth aria-labelledby="confirm-title">
      {title && <DialogTitle id="confirm-title">{title}</DialogTitle>}
      <DialogContent>
        <DialogContentText component="div" sx={{ pt: title ? 0 : 1 }}>
          {message}
        </DialogContentText>
        {requiredWord && (
          <TextField
            autoFocus
            sx={{ mt: 2 }}
            label={requiredWordLabel ?? `Type "${requiredWord}"`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={cancel}>{cancelLabel}</Button>
        <Button
          onClick={confirm}
          color="error"
          variant="contained"
          disabled={!wordOk || busy}
          data-testid="confirm-button"
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
