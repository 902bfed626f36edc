import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import type { GridColDef } from '@mui/x-data-grid';
import { DataGrid } from '../../components/DataGrid';
import { useState } from 'react';
import type { Thing, ZoneDuration } from '../../api/types';
import { DateRange } from '../../components/DateRange';
import { NoRows } from '../../components/LoadFailure';
import { formatHms, formatThingDate, lastDays, type DateRangeValue } from '../../components/format';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../constants';
import { useZoneHistory } from './queries';

const columns: GridColDef<ZoneDuration>[] = [
  { field: 'zoneName', headerName: 'Zone', flex: 1, minWidth: 120 },
  {
    field: 'timeStart',
    headerName: 'Start',
    flex: 1,
    minWidth: 160,
    valueFormatter: (value: string) => formatThingDate(value),
  },
  {
    field: 'timeEnd',
    headerName: 'End',
    flex: 1,
    minWidth: 160,
    valueFormatter: (value: string) => formatThingDate(value),
  },
  {
    field: 'timeDuration',
    headerName: 'Duration',
    type: 'number',
    minWidth: 100,
    valueFormatter: (value: number) => formatHms(value),
  },
];

/** The thing's zone visits in a period; open visits count up to now. */
export function ZoneHistoryTab({ thing }: { thing: Thing }) {
  const [range, setRange] = useState<DateRangeValue>(() => lastDays(7));
  const history = useZoneHistory(thing, range);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <DateRange value={range} onChange={setRange} />
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <DataGrid<ZoneDuration>
          label="Zone History"
          rows={history.isError ? [] : (history.data ?? [])}
          columns={columns}
          getRowId={(d) => d._id}
          loading={history.isFetching}
          initialState={{ pagination: { paginationModel: { pageSize: DEFAULT_PAGE_SIZE } } }}
          pageSizeOptions={[...PAGE_SIZES]}
          disableRowSelectionOnClick
          disableColumnSelector
          density="compact"
          autoHeight
          slots={{
            noRowsOverlay: () => (
              <NoRows
                queries={history}
                name="zone history"
                message="No zone visits in this period"
              />
            ),
          }}
          sx={{
            '--DataGrid-overlayHeight': '160px',
            '& .MuiDataGrid-row': { cursor: 'default' },
          }}
        />
      </Paper>
    </Box>
  );
}
