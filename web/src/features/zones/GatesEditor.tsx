import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { EditableRows, type EditableColumn } from '../../components/EditableRows';
import { useEventSources } from '../endpoints/queries';
import {
  GATE_ANTENNAS,
  GATE_DIRECTIONS,
  GATE_ENDPOINT_MESSAGE,
  newGate,
  type GateDirection,
  type GateRow,
} from './zoneForm';

/** A zone's gates: endpoint (of the zone's site), direction and antenna per row. */
export function GatesEditor({
  site,
  value,
  onChange,
  readOnly,
  invalid,
}: {
  site: string;
  value: GateRow[];
  onChange: (rows: GateRow[]) => void;
  readOnly: boolean;
  /** The form was submitted with a gate lacking its endpoint: mark those rows. */
  invalid: boolean;
}) {
  const sources = useEventSources(site);
  const endpoints = sources.data ?? [];
  const nameOf = (id: string) => endpoints.find((e) => e._id === id)?.name ?? '';

  const columns: EditableColumn<GateRow>[] = [
    {
      key: 'endpoint',
      width: 'minmax(0, 2fr)',
      fullOnPhone: true,
      render: (row, update) => {
        const missing = invalid && row.endpoint === '';
        return (
          <TextField
            select
            label="Endpoint"
            required
            value={endpoints.length > 0 || row.endpoint === '' ? row.endpoint : ''}
            onChange={(e) => update({ endpoint: e.target.value })}
            error={missing}
            helperText={
              missing
                ? GATE_ENDPOINT_MESSAGE
                : site === ''
                  ? 'Choose the site first'
                  : sources.isSuccess && endpoints.length === 0
                    ? 'This site has no endpoints'
                    : undefined
            }
            disabled={readOnly}
            slotProps={{
              select: { renderValue: (v) => nameOf(String(v)) },
            }}
          >
            {endpoints.map((e) => (
              <MenuItem key={e._id} value={e._id}>
                {e.name}
              </MenuItem>
            ))}
          </TextField>
        );
      },
    },
    {
      key: 'direction',
      render: (row, update) => (
        <TextField
          select
          label="Direction"
          value={row.direction}
          onChange={(e) => update({ direction: e.target.value as GateDirection })}
          disabled={readOnly}
        >
          {GATE_DIRECTIONS.map((d) => (
            <MenuItem key={d} value={d}>
              {d}
            </MenuItem>
          ))}
        </TextField>
      ),
    },
    {
      key: 'antenna',
      render: (row, update) => (
        <TextField
          select
          label="Antenna"
          value={row.antenna}
          onChange={(e) => update({ antenna: Number(e.target.value) })}
          disabled={readOnly}
        >
          {GATE_ANTENNAS.map((a) => (
            <MenuItem key={a.value} value={a.value}>
              {a.label}
            </MenuItem>
          ))}
        </TextField>
      ),
    },
  ];

  return (
    <EditableRows<GateRow>
      rows={value}
      onChange={onChange}
      columns={columns}
      newRow={newGate}
      rowLabel={(_row, index) => `Gate ${index + 1}`}
      readOnly={readOnly}
      addLabel="Add Gate"
      emptyMessage="This zone has no gates yet."
      testId="gates"
      rowTestId="gate-row"
    />
  );
}
