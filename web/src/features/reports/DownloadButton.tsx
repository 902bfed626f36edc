import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useState } from 'react';
import { errorText } from '../../api/client';
import { saveBlob } from '../../components/download';
import { useSnackbar } from '../../components/Snackbar';

/** Fetches a workbook and saves it; a failure says 'Download failed: {message}'. */
export function DownloadButton({
  label,
  fileName,
  fetchFile,
  disabled = false,
  testId = 'download-xlsx',
  variant = 'outlined',
}: {
  label: string;
  fileName: string;
  fetchFile: () => Promise<Blob>;
  disabled?: boolean;
  testId?: string;
  variant?: 'outlined' | 'contained';
}) {
  const snackbar = useSnackbar();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      saveBlob(await fetchFile(), fileName);
    } catch (err) {
      snackbar.error(`Download failed: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant={variant}
      startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <FileDownloadOutlined />}
      onClick={() => void download()}
      disabled={disabled || busy}
      data-testid={testId}
    >
      {label}
    </Button>
  );
}
