import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import HelpOutline from '@mui/icons-material/HelpOutlineOutlined';
import NotificationImportant from '@mui/icons-material/NotificationImportant';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import type { TrackEvent } from '../../api/types';
import { NoRows } from '../../components/LoadFailure';
import { formatListDate } from '../../components/format';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../constants';
import { useSiteNavigate } from '../session/SiteContext';
import { eventThingPath, formatEventData, formatFirstTime, isMatched } from './eventLogic';
import { useEventsPage, type EventFilter } from './queries';

function TagCell({ event, compact }: { event: TrackEvent; compact: boolean }) {
  const matched = isMatched(event);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, minWidth: 0, height: '100%' }}>
      {matched ? (
        <Tooltip title={event.thingName ? `Matched: ${event.thingName}` : 'Matched'}>
          <CheckCircleOutline
            fontSize="small"
            color="success"
            aria-label="matched"
            data-testid="matched"
          />
        </Tooltip>
      ) : compact ? (
        <Tooltip title="unmatched">
          <HelpOutline
            fontSize="small"
            color="warning"
            aria-label="unmatched"
            data-testid="unmatched"
          />
        </Tooltip>
      ) : (
        <Chip
          size="small"
          variant="outlined"
          color="warning"
          label="unmatched"
          data-testid="unmatched"
          sx={{ height: 20, fontSize: 11 }}
        />
      )}
      <Box
        component="span"
        title={event.tag}
        sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {event.tag}
      </Box>
      {event.alarmTamper && (
        <Tooltip title="Tamper alarm">
          <NotificationImportant
            fontSize="small"
            color="error"
            aria-label="Tamper alarm"
            data-testid="tamper-alarm"
          />
        </Tooltip>
      )}
    </Box>
  );
}

const columns: (GridColDef<TrackEvent> & { mobile?: boolean })[] = [
  {
    field: 'tag',
    headerName: 'Tag',
    minWidth: 210,
    flex: 1.6,
    mobile: true,
  },
  {
    field: 'firstTime',
    headerName: 'Last Full Event',
    minWidth: 175,
    valueFormatter: (value: string) => formatFirstTime(value),
  },
  {
    field: 'time',
    headerName: 'Last Seen',
    minWidth: 175,
    mobile: true,
    valueFormatter: (value: string) => formatListDate(value),
  },
  { field: 'repeatCount', headerName: 'Repeat Event Count', type: 'number', minWidth: 100 },
  { field: 'direction', headerName: 'Direction', minWidth: 85 },
  { field: 'endpointName', headerName: 'Endpoint', minWidth: 120, flex: 1 },
  {
    field: 'data',
    headerName: 'Data',
    minWidth: 80,
    valueGetter: (_v, row) => formatEventData(row.data),
  },
  { field: 'locationTagName', headerName: 'Location', minWidth: 100, flex: 1 },
  { field: 'antenna', headerName: 'Antenna', type: 'number', minWidth: 80 },
  { field: 'zoneName', headerName: 'Zone', minWidth: 110, flex: 1 },
];

/**
 * Events, latest first, paged on the server: the Events page (live, or polling when it
 * cannot be) and a thing's Events tab. A row opens its thing, except the unknown placeholder.
 */
export function EventsTable({
  filter,
  poll = false,
  enabled = true,
  label = 'Events',
}: {
  filter: EventFilter;
  poll?: boolean;
  enabled?: boolean;
  label?: string;
}) {
  const navigate = useSiteNavigate();
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [pagination, setPagination] = useState({ page: 0, pageSize: DEFAULT_PAGE_SIZE });
  const filterKey = JSON.stringify(filter);
  const [lastFilterKey, setLastFilterKey] = useState(filterKey);
  // A new filter starts from the first page.
  if (filterKey !== lastFilterKey) {
    setLastFilterKey(filterKey);
    setPagination((p) => ({ ...p, page: 0 }));
  }
  const result = useEventsPage(filter, pagination.page, pagination.pageSize, { poll, enabled });
  const total = result.data?.total;

  const visibility = useMemo(
    () =>
      Object.fromEntries(columns.map((c) => [c.field, !mobile || !!c.mobile])) as Record<
        string,
        boolean
      >,
    [mobile],
  );
  const gridColumns = useMemo<GridColDef<TrackEvent>[]>(
    () =>
      columns.map(({ mobile: _m, ...c }) => ({
        sortable: false,
        flex: 1,
        ...c,
        ...(c.field === 'tag'
          ? { renderCell: ({ row }) => <TagCell event={row} compact={mobile} /> }
          : {}),
        // On a phone the two columns share the width evenly.
        ...(mobile ? { flex: 1, minWidth: 160 } : {}),
      })),
    [mobile],
  );

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <DataGrid<TrackEvent>
        label={label}
        rows={result.isError ? [] : (result.data?.rows ?? [])}
        columns={gridColumns}
        getRowId={(e) => e._id}
        // Only the first load shows the spinner: polling refreshes quietly.
        loading={result.isPending && enabled}
        rowCount={total ?? 0}
        paginationMode="server"
        paginationModel={pagination}
        onPaginationModelChange={setPagination}
        pageSizeOptions={[...PAGE_SIZES]}
        columnVisibilityModel={visibility}
        onRowClick={({ row }) => {
          const path = eventThingPath(row);
          if (path) navigate(path);
        }}
        getRowClassName={({ row }) => (eventThingPath(row) ? 'event-matched' : 'event-unmatched')}
        disableRowSelectionOnClick
        disableColumnFilter
        disableColumnSelector
        disableColumnMenu
        density="compact"
        autoHeight
        slots={{
          noRowsOverlay: () => (
            <NoRows queries={result} name="events" message="No events in this period" />
          ),
        }}
        sx={{
          '--DataGrid-overlayHeight': '180px',
          '& .MuiDataGrid-cell': { overflow: 'hidden', textOverflow: 'ellipsis' },
          '& .event-unmatched': { cursor: 'default' },
          '& .event-matched': { cursor: 'pointer' },
        }}
      />
    </Paper>
  );
}
