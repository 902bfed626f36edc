import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { EditableRows, type EditableColumn } from '../../components/EditableRows';
import type { FieldOption } from '../../components/FormField';
import { coordinateProblem, type AntennaRow } from './endpointForm';

const coordinate = (label: 'X' | 'Y', key: 'x' | 'y', readOnly: boolean) =>
  ({
    key,
    width: 'minmax(0, 1fr)',
    render: (row, update) => {
      const problem = coordinateProblem(row[key]);
      return (
        <TextField
          label={label}
          size="small"
          value={row[key]}
          onChange={(e) => update({ [key]: e.target.value })}
          error={problem !== null}
          helperText={problem ?? undefined}
          slotProps={{ input: { readOnly }, htmlInput: { inputMode: 'decimal' } }}
        />
      );
    },
  }) satisfies EditableColumn<AntennaRow>;

/** The antenna table of an endpoint: one row per port (the row's position), X, Y and map. */
export function AntennasEditor({
  value,
  onChange,
  readOnly,
  mapOptions,
}: {
  value: AntennaRow[];
  onChange: (rows: AntennaRow[]) => void;
  readOnly: boolean;
  /** The site's maps, 'None' first. */
  mapOptions: FieldOption[];
}) {
  const columns: EditableColumn<AntennaRow>[] = [
    coordinate('X', 'x', readOnly),
    coordinate('Y', 'y', readOnly),
    {
      key: 'map',
      width: 'minmax(0, 2fr)',
      fullOnPhone: true,
      render: (row, update) => (
        <TextField
          select
          label="Map"
          size="small"
          value={mapOptions.some((o) => o.value === row.map) ? row.map : ''}
          onChange={(e) => update({ map: e.target.value })}
          slotProps={{ input: { readOnly } }}
        >
          {mapOptions.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      ),
    },
  ];
  return (
    <EditableRows<AntennaRow>
      rows={value}
      onChange={onChange}
      columns={columns}
      newRow={() => ({ map: '', x: '', y: '' })}
      rowLabel={(_row, index) => `Antenna ${index}`}
      readOnly={readOnly}
      addLabel="Add Antenna"
      emptyMessage="This endpoint has no antennas yet."
      testId="antennas"
      rowTestId="antenna-row"
    />
  );
}
