import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { GridColDef, GridPaginationModel } from '@mui/x-data-grid';
import { DataGrid } from '../../components/DataGrid';
import { useMemo, useState } from 'react';
import type { TrackException } from '../../api/types';
import { DateRange } from '../../components/DateRange';
import { NoRows } from '../../components/LoadFailure';
import { LIST_DATE_FORMAT, lastDays, type DateRangeValue } from '../../components/format';
import { formatOnClock, wallClock } from '../../components/siteClock';
import { PageHeader } from '../../components/PageHeader';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../constants';
import { DownloadButton } from '../reports/DownloadButton';
import { useSiteClock, useSiteNavigate, useSiteSelection } from '../access/SiteContext';
import { useSiteLabels } from '../settings/queries';
import { exceptionMessage, exceptionTypeName } from './exceptionLogic';
import { downloadExceptions, useExceptions } from './queries';

/** Exceptions of the site in a period, newest first; a row opens its detail. */
export default function ExceptionsPage() {
  const { site, siteId } = useSiteSelection();
  const clock = useSiteClock();
  const labels = useSiteLabels(siteId);
  const navigate = useSiteNavigate();
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  // Days on the site's clock: until one is chosen, the week up to the site's today.
  const siteNow = () => wallClock(clock.zone);
  const [chosen, setRange] = useState<DateRangeValue | null>(null);
  const range = chosen ?? lastDays(7, siteNow());
  const [paging, setPaging] = useState<GridPaginationModel>({
    page: 0,
    pageSize: DEFAULT_PAGE_SIZE,
  });
  const exceptions = useExceptions(siteId, range, clock.zone, paging.page, paging.pageSize);

  const columns = useMemo<GridColDef<TrackException>[]>(
    () => [
      {
        field: 'time',
        headerName: 'Time',
        flex: 1.2,
        minWidth: 180,
        valueGetter: (value: string, row) =>
          formatOnClock(value, LIST_DATE_FORMAT, clock.zoneOf(row.site)),
      },
      {
        field: 'type',
        headerName: 'Type',
        flex: 0.8,
        minWidth: 100,
        valueFormatter: (value: string) => exceptionTypeName(value),
      },
      {
        field: 'message',
        headerName: 'Message',
        flex: 1,
        minWidth: 140,
        valueGetter: (_v, row) => exceptionMessage(row),
      },
      {
        field: 'thingName',
        headerName: labels.itemName,
        flex: 1,
        minWidth: 120,
        valueGetter: (_v, row) => row.thingName || (row.multipleThings.length ? '—' : ''),
      },
      { field: 'zoneName', headerName: 'Zone', flex: 1, minWidth: 110 },
    ],
    [labels.itemName, clock],
  );

  return (
    <Box>
      <PageHeader
        title="Exceptions"
        subtitle={
          site && (
            <span data-testid="site-clock">
              {`${site.name}${exceptions.data ? ` · ${exceptions.data.total} total` : ''} · ${clock.note}`}
            </span>
          )
        }
        actions={
          <DownloadButton
            label="Download XLSX"
            fileName="exceptions.xlsx"
            fetchFile={() => downloadExceptions(siteId ?? '', range, clock.zone)}
            disabled={!siteId}
          />
        }
      />
      <Box sx={{ mb: 2, '@media print': { display: 'none' } }}>
        <DateRange
          value={range}
          now={siteNow}
          onChange={(next) => {
            setRange(next);
            setPaging((p) => ({ ...p, page: 0 }));
          }}
        />
      </Box>
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <DataGrid<TrackException>
          label="Exceptions"
          rows={exceptions.isError ? [] : (exceptions.data?.rows ?? [])}
          columns={columns}
          getRowId={(e) => e._id}
          loading={!!siteId && exceptions.isFetching}
          rowCount={exceptions.data?.total ?? 0}
          paginationMode="server"
          paginationModel={paging}
          onPaginationModelChange={setPaging}
          pageSizeOptions={[...PAGE_SIZES]}
          columnVisibilityModel={{ type: !mobile, zoneName: !mobile }}
          onRowClick={({ row }: { row: TrackException }) => void navigate(`/exceptions/${row._id}`)}
          disableRowSelectionOnClick
          disableColumnSelector
          disableColumnSorting
          density="compact"
          autoHeight
          slots={{
            noRowsOverlay: () => (
              <NoRows
                queries={exceptions}
                name="exceptions"
                message="No exceptions in this period."
              />
            ),
          }}
          sx={{
            border: 0,
            '--DataGrid-overlayHeight': '180px',
            '& .MuiDataGrid-row': { cursor: 'pointer' },
            '& .MuiDataGrid-cell': { overflow: 'hidden', textOverflow: 'ellipsis' },
          }}
        />
      </Paper>
    </Box>
  );
}
