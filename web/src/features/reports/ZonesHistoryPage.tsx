import Refresh from '@mui/icons-material/Refresh';
import TimelineOutlined from '@mui/icons-material/TimelineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { BarChart } from '../../components/BarChart';
import type { GridColDef } from '@mui/x-data-grid';
import { DataGrid } from '../../components/DataGrid';
import { useMemo, useState } from 'react';
import type { ZoneDuration } from '../../api/types';
import { CappedNotice } from '../../components/CappedNotice';
import { DateRange } from '../../components/DateRange';
import { NoRows } from '../../components/LoadFailure';
import {
  formatHms,
  formatListDate,
  lastDays,
  shortText,
  type DateRangeValue,
} from '../../components/format';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, UNKNOWN_THING_ID } from '../../constants';
import { useSiteSelection } from '../access/SiteContext';
import { useSiteLabels } from '../settings/queries';
import { useZoneOptions } from '../zones/queries';
import { DownloadButton } from './DownloadButton';
import { downloadZoneDurations, useZoneDurations, useZoneTotals } from './queries';
import { ViewToggle, type ReportView } from './ViewToggle';
import { nanosToHours } from './zoneLogic';

type ZoneTotal = NonNullable<ReturnType<typeof useZoneTotals>['data']>[number];

function ZoneTotalsChart({
  totals,
  siteOf,
}: {
  totals: readonly ZoneTotal[];
  /** The zone's site name, under the zone's while All Sites is selected. */
  siteOf?: (zone: string) => string;
}) {
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const dataset = totals.map((t) => ({
    // Same-named zones of several sites stay apart, each with its site on a second line.
    zone: siteOf ? `${t.zoneName}\n${siteOf(t.zone)}` : t.zoneName,
    hours: nanosToHours(t.timeDuration),
    nanos: t.timeDuration,
  }));
  const max = mobile ? 12 : 24;
  return (
    <Box data-testid="zone-durations-chart" sx={{ width: '100%', minWidth: 0 }}>
      <BarChart
        dataset={dataset}
        layout="horizontal"
        yAxis={[
          {
            scaleType: 'band',
            dataKey: 'zone',
            // Wider with the site's line, else the chart cuts the names short itself.
            width: (mobile ? 90 : 160) + (siteOf ? 50 : 0),
            valueFormatter: (name: string, ctx) =>
              ctx.location === 'tick'
                ? name
                    .split('\n')
                    .map((line) => shortText(line, max))
                    .join('\n')
                : name.replace('\n', ' · '),
          },
        ]}
        xAxis={[{ label: 'Hours' }]}
        series={[
          {
            dataKey: 'hours',
            label: 'Time in zone',
            valueFormatter: (_v, { dataIndex }) => formatHms(dataset[dataIndex]?.nanos ?? 0),
          },
        ]}
        height={Math.max(220, dataset.length * 36 + 100)}
        margin={{ right: 16 }}
        grid={{ vertical: true }}
        skipAnimation
      />
    </Box>
  );
}

/** Zones History: the site's zone visits in a period, as a table or time per zone. */
export default function ZonesHistoryPage() {
  const { site, siteId, isAllSites, siteName } = useSiteSelection();
  const labels = useSiteLabels(siteId);
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [range, setRange] = useState<DateRangeValue>(() => lastDays(1));
  const [view, setView] = useState<ReportView>('table');
  const durations = useZoneDurations(siteId, range);
  const totals = useZoneTotals(siteId, range, view === 'graph');
  const zones = useZoneOptions(isAllSites && view === 'graph' ? siteId : undefined);
  const zoneSites = useMemo(
    () => new Map((zones.data ?? []).map((z) => [z._id, siteName(z.site)])),
    [zones.data, siteName],
  );
  const visits = useMemo(
    () => (durations.data?.rows ?? []).filter((d) => d.thing !== UNKNOWN_THING_ID),
    [durations.data],
  );

  const columns = useMemo<GridColDef<ZoneDuration>[]>(
    () => [
      { field: 'thingName', headerName: labels.itemName, flex: 1.2, minWidth: 90 },
      // All Sites lists same-named zones of several sites: each row names its site.
      ...(isAllSites
        ? [
            {
              field: 'site',
              headerName: 'Site',
              flex: 1.2,
              minWidth: 90,
              valueGetter: (value: string) => siteName(value),
            },
          ]
        : []),
      { field: 'zoneName', headerName: 'Zone', flex: 1, minWidth: 80 },
      {
        field: 'timeStart',
        headerName: 'Start',
        flex: 1.2,
        minWidth: 180,
        valueFormatter: (value: string) => formatListDate(value),
      },
      {
        field: 'timeEnd',
        headerName: 'End',
        flex: 1.2,
        minWidth: 180,
        valueFormatter: (value: string) => formatListDate(value),
      },
      {
        field: 'timeDuration',
        headerName: 'Duration',
        type: 'number',
        flex: 0.7,
        // With the Site column on a phone, the four columns still fit its width.
        minWidth: isAllSites && mobile ? 88 : 104,
        valueFormatter: (value: number) => formatHms(value),
      },
    ],
    [labels.itemName, isAllSites, siteName, mobile],
  );

  let body;
  const graphData = totals.data?.filter((t) => t.visits > 0) ?? [];
  const graphPending = totals.isPending || (isAllSites && zones.isPending);
  if (!!siteId && (view === 'graph' ? graphPending : durations.isPending)) body = <Loading />;
  else if (view === 'graph') {
    body =
      graphData.length === 0 || totals.isError ? (
        <NoRows
          queries={totals}
          name="zone history"
          icon={<TimelineOutlined sx={{ fontSize: 40, opacity: 0.5 }} />}
          message="No zone visits in this period."
        />
      ) : (
        <Box sx={{ p: { xs: 1, sm: 2 } }}>
          <ZoneTotalsChart
            totals={graphData}
            siteOf={isAllSites ? (zone) => zoneSites.get(zone) ?? '' : undefined}
          />
        </Box>
      );
  } else {
    body = (
      <DataGrid<ZoneDuration>
        label="Zones History"
        rows={durations.isError ? [] : visits}
        columns={columns}
        getRowId={(d) => d._id}
        loading={durations.isFetching}
        initialState={{
          pagination: { paginationModel: { pageSize: DEFAULT_PAGE_SIZE } },
          sorting: { sortModel: [{ field: 'timeStart', sort: 'desc' }] },
        }}
        pageSizeOptions={[...PAGE_SIZES]}
        columnVisibilityModel={{ timeStart: !mobile, timeEnd: !mobile }}
        disableRowSelectionOnClick
        disableColumnSelector
        density="compact"
        autoHeight
        slots={{
          noRowsOverlay: () => (
            <NoRows
              queries={durations}
              name="zone history"
              message="No zone visits in this period."
            />
          ),
        }}
        sx={{
          border: 0,
          '--DataGrid-overlayHeight': '160px',
          '& .MuiDataGrid-row': { cursor: 'default' },
          '& .MuiDataGrid-cell': { overflow: 'hidden', textOverflow: 'ellipsis' },
        }}
      />
    );
  }

  return (
    <Box>
      <PageHeader
        title="Zones History"
        subtitle={site?.name}
        actions={
          <>
            <ViewToggle value={view} onChange={setView} />
            <Button
              variant="outlined"
              startIcon={<Refresh />}
              onClick={() => void (view === 'graph' ? totals.refetch() : durations.refetch())}
              disabled={durations.isFetching || totals.isFetching || !siteId}
            >
              Refresh
            </Button>
            <DownloadButton
              label="Download XLSX"
              fileName="zoneshistory.xlsx"
              fetchFile={() => downloadZoneDurations(siteId ?? '', range)}
              disabled={!siteId}
            />
          </>
        }
      />
      <Box sx={{ mb: 2, '@media print': { display: 'none' } }}>
        <DateRange value={range} onChange={setRange} disableFuture />
      </Box>
      {view === 'table' && durations.data && (
        <CappedNotice
          shown={durations.data.rows.length}
          total={durations.data.total}
          noun="zone visits"
          narrow="choose a shorter period"
        />
      )}
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        {body}
      </Paper>
    </Box>
  );
}
