import PrintOutlined from '@mui/icons-material/PrintOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type ReactNode } from 'react';
import { DEFAULT_QR_SIZE, QR_SIZES } from '../constants';

/** Set on <body> while the Print button prints: then only the code's area is printed. */
const PRINTING_ATTR = 'data-printing-qr';
const PRINT_AREA = 'qr-print-area';

const printStyles = (
  <GlobalStyles
    styles={{
      '@media print': {
        [`body[${PRINTING_ATTR}] *`]: { visibility: 'hidden' },
        [`body[${PRINTING_ATTR}] .${PRINT_AREA}, body[${PRINTING_ATTR}] .${PRINT_AREA} *`]: {
          visibility: 'visible',
        },
        [`body[${PRINTING_ATTR}] .${PRINT_AREA}`]: { position: 'absolute', left: 0, top: 0 },
      },
    }}
  />
);

/** Prints the page with everything but the code (and its texts) hidden. */
function printQrCode(): void {
  const body = document.body;
  const done = () => {
    body.removeAttribute(PRINTING_ATTR);
    window.removeEventListener('afterprint', done);
  };
  body.setAttribute(PRINTING_ATTR, '');
  window.addEventListener('afterprint', done);
  window.print();
}

export interface QrCodeProps {
  /** The encoded text. */
  value: string;
  /** Shown under the code instead of the value. */
  caption?: string;
  /** What the code stands for, in words, printed under the code (e.g. a category's name). */
  label?: string;
  /** An instruction shown (and printed) above the code, e.g. how to scan it. */
  message?: ReactNode;
  /** The starting size, one of QR_SIZES (default 300). */
  defaultSize?: number;
}

/** A printable QR code (error correction H) with its value and a size choice (SPEC section 2). */
export function QrCode({
  value,
  caption,
  label,
  message,
  defaultSize = DEFAULT_QR_SIZE,
}: QrCodeProps) {
  const [size, setSize] = useState<number>(defaultSize);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'flex-start' }}>
      {printStyles}
      <Box
        sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', displayPrint: 'none', width: '100%' }}
      >
        <TextField
          select
          label="Size"
          value={size}
          onChange={(e) => setSize(Number(e.target.value))}
          sx={{ width: 180 }}
        >
          {QR_SIZES.map((s) => (
            <MenuItem key={s.size} value={s.size}>
              {s.label}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" startIcon={<PrintOutlined />} onClick={printQrCode}>
          Print
        </Button>
      </Box>
      <Box
        className={PRINT_AREA}
        sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, maxWidth: '100%' }}
      >
        {message && (
          <Typography variant="body1" data-testid="qr-message">
            {message}
          </Typography>
        )}
        <Box sx={{ maxWidth: '100%', overflow: 'auto', bgcolor: '#fff', p: 1, lineHeight: 0 }}>
          <QRCodeSVG
            value={value}
            size={size}
            level="H"
            title={`QR code: ${value}`}
            data-testid="qr-code"
          />
        </Box>
        {label && (
          <Typography
            variant="h6"
            component="p"
            sx={{ fontWeight: 600, overflowWrap: 'anywhere', maxWidth: Math.max(size, 300) }}
            data-testid="qr-label"
          >
            {label}
          </Typography>
        )}
        <Typography
          variant="body2"
          sx={{ fontFamily: 'monospace', wordBreak: 'break-all', maxWidth: Math.max(size, 300) }}
          data-testid="qr-value"
        >
          {caption ?? value}
        </Typography>
      </Box>
    </Box>
  );
}
