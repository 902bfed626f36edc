import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { GridColDef } from '@mui/x-data-grid';
import { DataGrid } from '../../components/DataGrid';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import type { Thing } from '../../api/types';
import { ALERT_ROW_SX } from '../../components/alertRow';
import { NoRows } from '../../components/LoadFailure';
import { formatHms, formatListDate } from '../../components/format';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { PAGE_SIZES } from '../../constants';
import { ZoneOverview } from '../home/ZoneOverview';
import { useLiveUpdates } from '../live/useLiveUpdates';
import { useSiteSelection } from '../access/SiteContext';
import type { Labels } from '../settings/labels';
import { useSiteLabels } from '../settings/queries';
import { useZoneOptions } from '../zones/queries';
import { DownloadButton } from './DownloadButton';
import { downloadZoneStatus, reportKeys, useLiveThings } from './queries';
import { useClock } from './useClock';
import { ViewToggle, type ReportView } from './ViewToggle';
import {
  LIVE_CLOCK_MS,
  isOverZoneTime,
  nanosInZone,
  occupancyByZone,
  zoneMaxMinutes,
  type ZoneOccupancy,
} from './zoneLogic';

function ZoneTable({
  occupancy,
  now,
  labels,
  siteName,
}: {
  occupancy: ZoneOccupancy<Thing>;
  now: Dayjs;
  labels: Labels;
  /** The zone's site, named while All Sites is selected. */
  siteName?: string;
}) {
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { zone, things } = occupancy;
  const max = zoneMaxMinutes(zone.duration);
  const limit = max > 0 ? `Alert after ${Math.round(max * 100) / 100} min` : 'No time limit';
  const columns = useMemo<GridColDef<Thing>[]>(
    () => [
      {
        field: 'name',
        headerName: labels.itemName,
        flex: 1.4,
        minWidth: 120,
        valueGetter: (_v, row) => row.common.name ?? '',
      },
      {
        field: 'class',
        headerName: 'Type',
        flex: 0.8,
        minWidth: 90,
        valueGetter: (_v, row) => (row.common.class === 'worker' ? labels.worker : labels.item),
      },
      {
        field: 'entered',
        headerName: 'Entered',
        flex: 1.3,
        minWidth: 180,
        valueGetter: (_v, row) => formatListDate(row.state.lastZoneTime),
      },
      {
        field: 'inZone',
        headerName: 'Time in Zone',
        type: 'number',
        flex: 0.8,
        minWidth: 110,
        valueGetter: (_v, row) => nanosInZone(row.state.lastZoneTime, now),
        valueFormatter: (value: number) => formatHms(value),
      },
    ],
    [labels, now],
  );

  return (
    <Card
      component="section"
      aria-label={zone.name}
      data-testid="zone-status-card"
      sx={{ minWidth: 0 }}
    >
      <CardHeader
        title={zone.name}
        subheader={siteName ? `${siteName} · ${limit}` : limit}
        action={
          <Chip
            size="small"
            label={things.length}
            aria-label={`${things.length} in zone`}
            sx={{ mt: 1, mr: 1 }}
          />
        }
        slotProps={{
          title: {
            variant: 'subtitle1',
            component: 'h2',
            noWrap: true,
            title: zone.name,
            sx: { fontWeight: 600 },
          },
          subheader: { variant: 'caption' },
          content: { sx: { minWidth: 0 } },
        }}
        sx={{ borderBottom: 1, borderColor: 'divider', py: 1 }}
      />
      {things.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 2 }}>
          Nothing in this zone
        </Typography>
      ) : (
        <DataGrid<Thing>
          label={zone.name}
          rows={things}
          columns={columns}
          getRowId={(t) => t._id}
          initialState={{ pagination: { paginationModel: { pageSize: 10 } } }}
          pageSizeOptions={[...PAGE_SIZES]}
          columnVisibilityModel={{ class: !labels.hideWorkers && !mobile, entered: !mobile }}
          getRowClassName={({ row }) =>
            isOverZoneTime(row.state.lastZoneTime, zone.duration, now) ? 'zone-overtime' : 'zone-ok'
          }
          disableRowSelectionOnClick
          disableColumnSelector
          density="compact"
          autoHeight
          hideFooter={things.length <= 10}
          sx={{
            border: 0,
            '& .MuiDataGrid-row': { cursor: 'default' },
            '& .MuiDataGrid-cell': { overflow: 'hidden', textOverflow: 'ellipsis' },
            '& .zone-overtime': ALERT_ROW_SX,
          }}
        />
      )}
    </Card>
  );
}

/** Zone Status: what is in each zone now, with the time each thing has spent there. */
export default function ZoneStatusPage() {
  const { site, siteId, isAllSites, siteName } = useSiteSelection();
  const labels = useSiteLabels(siteId);
  const zones = useZoneOptions(siteId);
  // Things are refreshed when the server says the site changed, or polled while it cannot.
  const liveKeys = useMemo(() => [reportKeys.liveThings(siteId)], [siteId]);
  const live = useLiveUpdates(siteId, liveKeys);
  const things = useLiveThings(siteId, { poll: !live });
  const now = useClock(LIVE_CLOCK_MS);
  const [view, setView] = useState<ReportView>('table');

  const occupancy = useMemo(
    () => occupancyByZone(zones.data ?? [], things.data ?? [], labels.hideWorkers),
    [zones.data, things.data, labels.hideWorkers],
  );
  // All Sites shows same-named zones of several sites: each names its site.
  const counts = useMemo(
    () =>
      occupancy.map((o) => {
        const where = isAllSites ? siteName(o.zone.site) : '';
        const name = where ? `${o.zone.name} · ${where}` : o.zone.name;
        return { name, items: o.items, workers: o.workers };
      }),
    [occupancy, isAllSites, siteName],
  );
  const loading = !!siteId && (zones.isPending || things.isPending);

  let body;
  if (loading) body = <Loading />;
  else if (view === 'graph') {
    body = (
      <ZoneOverview zones={counts} loading={false} queries={[zones, things]} labels={labels} />
    );
  } else if (occupancy.length === 0 || zones.isError || things.isError) {
    body = (
      <NoRows
        queries={[zones, things]}
        name="zone status"
        icon={<PlaceOutlined sx={{ fontSize: 40, opacity: 0.5 }} />}
        message="This site has no zones yet."
      />
    );
  } else {
    body = (
      <Box
        data-testid="zone-status-tables"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' },
          gap: 2,
          alignItems: 'start',
        }}
      >
        {occupancy.map((o) => (
          <ZoneTable
            key={o.zone._id}
            occupancy={o}
            now={now}
            labels={labels}
            siteName={isAllSites ? siteName(o.zone.site) : undefined}
          />
        ))}
      </Box>
    );
  }

  return (
    <Box>
      <PageHeader
        title="Zone Status"
        subtitle={site ? `${now.format('hh:mm:ss a')} · ${site.name}` : undefined}
        actions={
          <>
            <ViewToggle value={view} onChange={setView} />
            <DownloadButton
              label="Download XLSX"
              fileName="zonestatus.xlsx"
              fetchFile={() => downloadZoneStatus(siteId ?? '')}
              disabled={!siteId}
            />
          </>
        }
      />
      {body}
    </Box>
  );
}
