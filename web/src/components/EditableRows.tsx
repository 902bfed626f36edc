import AddIcon from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState';

export interface EditableColumn<R> {
  key: string;
  /** A grid track on wide screens, e.g. '120px'; the default shares the width. */
  width?: string;
  /** Takes a whole line of the phone layout (two cells a line otherwise). */
  fullOnPhone?: boolean;
  /** The cell: usually one small labelled input bound to the row. */
  render: (row: R, update: (patch: Partial<R>) => void, index: number) => ReactNode;
}

export interface EditableRowsProps<R> {
  rows: R[];
  onChange: (rows: R[]) => void;
  columns: EditableColumn<R>[];
  /** The row the Add button appends. */
  newRow: () => R;
  /** The row's name, shown first and used by its delete button, e.g. 'Antenna 0'. */
  rowLabel: (row: R, index: number) => string;
  readOnly?: boolean;
  addLabel: string;
  emptyMessage: string;
  testId?: string;
  rowTestId?: string;
}

/**
 * An editable table of rows (antennas, gates): one line per row on wide screens, a small
 * card of fields on a phone; each row can be deleted and rows can be added.
 */
export function EditableRows<R>({
  rows,
  onChange,
  columns,
  newRow,
  rowLabel,
  readOnly = false,
  addLabel,
  emptyMessage,
  testId,
  rowTestId = 'editable-row',
}: EditableRowsProps<R>) {
  const update = (index: number) => (patch: Partial<R>) =>
    onChange(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const remove = (index: number) => onChange(rows.filter((_r, i) => i !== index));
  const tracks = `minmax(88px, auto) ${columns.map((c) => c.width ?? 'minmax(0, 1fr)').join(' ')}${
    readOnly ? '' : ' 40px'
  }`;

  const deleteButton = (row: R, index: number, display: Record<string, string>) => (
    <Tooltip title="Delete">
      <IconButton
        aria-label={`Delete ${rowLabel(row, index)}`}
        onClick={() => remove(index)}
        size="small"
        sx={{ display, mt: { md: 0.5 } }}
      >
        <DeleteOutline fontSize="small" />
      </IconButton>
    </Tooltip>
  );

  return (
    <Box data-testid={testId}>
      {rows.length === 0 && <EmptyState message={emptyMessage} />}
      {rows.map((row, index) => (
        <Box
          // Rows have no identity of their own; their position is what the server keeps.
          key={index}
          role="group"
          aria-label={rowLabel(row, index)}
          data-testid={rowTestId}
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: tracks },
            gap: 1.5,
            alignItems: 'start',
            py: 1.5,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Box
            sx={{
              gridColumn: { xs: '1 / -1', md: 'auto' },
              display: 'flex',
              alignItems: 'center',
              minHeight: { md: 40 },
              minWidth: 0,
            }}
          >
            <Typography variant="subtitle2" noWrap sx={{ flex: 1 }}>
              {rowLabel(row, index)}
            </Typography>
            {!readOnly && deleteButton(row, index, { xs: 'inline-flex', md: 'none' })}
          </Box>
          {columns.map((c) => (
            <Box
              key={c.key}
              sx={{
                minWidth: 0,
                gridColumn: c.fullOnPhone ? { xs: '1 / -1', md: 'auto' } : undefined,
              }}
            >
              {c.render(row, update(index), index)}
            </Box>
          ))}
          {!readOnly && deleteButton(row, index, { xs: 'none', md: 'inline-flex' })}
        </Box>
      ))}
      {!readOnly && (
        <Button
          startIcon={<AddIcon />}
          variant="outlined"
          onClick={() => onChange([...rows, newRow()])}
          sx={{ mt: 2 }}
        >
          {addLabel}
        </Button>
      )}
    </Box>
  );
}
