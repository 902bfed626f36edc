import RouterOutlined from '@mui/icons-material/RouterOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import { DataGrid } from '../../components/DataGrid';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { useMemo } from 'react';
import type { EndpointStatus } from '../../api/types';
import { ALERT_ROW_SX } from '../../components/alertRow';
import { NoRows, type Retryable } from '../../components/LoadFailure';
import { formatElapsed, formatListDate } from '../../components/format';
import { PAGE_SIZES } from '../../constants';
import { compareHeartbeat, isHeartbeatStale } from './homeLogic';

export interface EndpointStatusRow {
  _id: string;
  name: string;
  latest: EndpointStatus | null;
}

function lastHeartbeat(status: EndpointStatus | null): string {
  if (!status) return 'Never';
  const elapsed = formatElapsed(status.time);
  return `${formatListDate(status.time)}${elapsed ? ` (${elapsed})` : ''}`;
}

/** Endpoint Status: the latest heartbeat of each endpoint; red when stale (over 60 minutes). */
export function EndpointStatusTable({
  rows,
  loading,
  queries,
}: {
  rows: EndpointStatusRow[];
  loading: boolean;
  queries: Retryable[];
}) {
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const columns = useMemo<GridColDef<EndpointStatusRow>[]>(
    () => [
      { field: 'name', headerName: 'Name', flex: 1, minWidth: mobile ? 100 : 120 },
      {
        field: 'statusTime',
        headerName: 'Last Heartbeat',
        flex: mobile ? 2.2 : 1.6,
        minWidth: mobile ? 230 : 220,
        valueGetter: (_v, row) => row.latest?.time ?? null,
        valueFormatter: (_v, row) => lastHeartbeat(row.latest),
        sortComparator: compareHeartbeat,
      },
      {
        field: 'ip',
        headerName: 'IP Address',
        flex: 1,
        minWidth: 110,
        valueGetter: (_v, row) => row.latest?.ip ?? '',
      },
      {
        field: 'version',
        headerName: 'Firmware Version',
        flex: 1,
        minWidth: 120,
        valueGetter: (_v, row) => row.latest?.version ?? '',
      },
    ],
    [mobile],
  );

  const failed = queries.some((q) => q.isError);
  if (!loading && (failed || rows.length === 0)) {
    return (
      <NoRows
        queries={queries}
        name="endpoints"
        icon={<RouterOutlined sx={{ fontSize: 40, opacity: 0.5 }} />}
        message="This site has no endpoints yet."
      />
    );
  }
  return (
    <DataGrid<EndpointStatusRow>
      label="Endpoint Status"
      rows={rows}
      columns={columns}
      getRowId={(r) => r._id}
      loading={loading}
      initialState={{
        sorting: { sortModel: [{ field: 'statusTime', sort: 'asc' }] },
        pagination: { paginationModel: { pageSize: 10 } },
      }}
      pageSizeOptions={[...PAGE_SIZES]}
      columnVisibilityModel={{ ip: !mobile, version: !mobile }}
      getRowClassName={({ row }) =>
        isHeartbeatStale(row.latest?.time) ? 'endpoint-stale' : 'endpoint-ok'
      }
      disableRowSelectionOnClick
      disableColumnSelector
      density="compact"
      autoHeight
      slots={{
        noRowsOverlay: () => <NoRows queries={queries} name="endpoints" message="No endpoints" />,
      }}
      sx={{
        border: 0,
        '--DataGrid-overlayHeight': '160px',
        '& .MuiDataGrid-row': { cursor: 'default' },
        '& .MuiDataGrid-cell': { overflow: 'hidden', textOverflow: 'ellipsis' },
        '& .endpoint-stale': ALERT_ROW_SX,
      }}
    />
  );
}
