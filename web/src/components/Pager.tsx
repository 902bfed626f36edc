import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

/**
 * A list's page controls, as MUI's TablePagination draws them (rows per page, the range
 * shown, previous and next), without its tooltips and their popup code.
 */
export function Pager({
  count,
  page,
  pageSize,
  pageSizes,
  onPageChange,
  onPageSizeChange,
}: {
  count: number;
  page: number;
  pageSize: number;
  pageSizes: readonly number[];
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}) {
  const labelId = useId();
  const from = count === 0 ? 0 : page * pageSize + 1;
  const to = Math.min(count, (page + 1) * pageSize);
  const last = Math.max(0, Math.ceil(count / pageSize) - 1);
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'flex-end',
        flexWrap: 'wrap',
        columnGap: 2,
        minHeight: 52,
        px: 2,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <Typography variant="body2" id={labelId}>
        Rows per page:
      </Typography>
      <Select
        variant="standard"
        disableUnderline
        size="small"
        value={pageSize}
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion -- kept as it was
        onChange={(e) => onPageSizeChange(Number(e.target.value))}
        labelId={labelId}
        inputProps={{ 'aria-labelledby': labelId }}
        sx={{ fontSize: 14 }}
      >
        {pageSizes.map((size) => (
          <MenuItem key={size} value={size}>
            {size}
          </MenuItem>
        ))}
      </Select>
      <Typography variant="body2">{`${from}–${to} of ${count}`}</Typography>
      <Box>
        <IconButton
          aria-label="Go to previous page"
          disabled={page <= 0}
          onClick={() => onPageChange(page - 1)}
        >
          <ChevronLeft />
        </IconButton>
        <IconButton
          aria-label="Go to next page"
          disabled={page >= last}
          onClick={() => onPageChange(page + 1)}
        >
          <ChevronRight />
        </IconButton>
      </Box>
    </Box>
  );
}
