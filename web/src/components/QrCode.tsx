import PrintOutlined from '@mui/icons-material/PrintOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { DEFAULT_QR_SIZE, QR_SIZES } from '../constants';

/** A printable QR code (error correction H) with its value and a size choice. */
export function QrCode({ value, caption }: { value: string; caption?: string }) {
  const [size, setSize] = useState<number>(DEFAULT_QR_SIZE);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'flex-start' }}>
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
        <Button variant="outlined" startIcon={<PrintOutlined />} onClick={() => window.print()}>
          Print
        </Button>
      </Box>
      <Box sx={{ maxWidth: '100%', overflow: 'auto', bgcolor: '#fff', p: 1 }}>
        <QRCodeSVG value={value} size={size} level="H" data-testid="qr-code" />
      </Box>
      <Typography
        variant="body2"
        sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
        data-testid="qr-value"
      >
        {caption ?? value}
      </Typography>
    </Box>
  );
}
