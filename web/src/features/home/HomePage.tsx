import Refresh from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useMemo, type ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useSiteSelection } from '../access/SiteContext';
import { useSiteLabels } from '../settings/queries';
import { EndpointStatusTable } from './EndpointStatusTable';
import { joinStatuses } from './homeLogic';
import { useLatestStatuses, useSiteEndpoints, useZoneOverview } from './queries';
import { ZoneOverview } from './ZoneOverview';

function DashboardCard({
  title,
  testId,
  action,
  children,
}: {
  title: string;
  testId: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card data-testid={testId} component="section" aria-label={title} sx={{ minWidth: 0 }}>
      <CardHeader
        title={title}
        action={action}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        sx={{ borderBottom: 1, borderColor: 'divider', py: 1.5 }}
      />
      <CardContent sx={{ px: { xs: 1, sm: 2 } }}>{children}</CardContent>
    </Card>
  );
}

function RefreshButton({
  label,
  busy,
  onClick,
}: {
  label: string;
  busy: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip title={label}>
      <span>
        <IconButton aria-label={label} onClick={onClick} disabled={busy}>
          <Refresh />
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** The dashboard: zone overview and endpoint status of the selected site. */
export default function HomePage() {
  const { site, siteId } = useSiteSelection();
  const labels = useSiteLabels(siteId);
  const zones = useZoneOverview(siteId);
  const endpoints = useSiteEndpoints(siteId);
  const statuses = useLatestStatuses(siteId);
  const rows = useMemo(
    () =>
      joinStatuses(endpoints.data ?? [], statuses.data ?? []).map((e) => ({
        _id: e._id,
        name: e.name,
        latest: e.latest,
      })),
    [endpoints.data, statuses.data],
  );

  return (
    <Box>
      <PageHeader title="Home" subtitle={site?.name} />
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 2fr) minmax(0, 3fr)' },
          gap: { xs: 2, sm: 3 },
          alignItems: 'start',
        }}
      >
        <DashboardCard
          title="Zone Overview"
          testId="zone-overview"
          action={
            <RefreshButton
              label="Refresh zones"
              busy={zones.isFetching}
              onClick={() => void zones.refetch()}
            />
          }
        >
          <ZoneOverview
            zones={zones.data}
            loading={!!siteId && zones.isPending}
            queries={zones}
            labels={labels}
          />
        </DashboardCard>
        <DashboardCard
          title="Endpoint Status"
          testId="endpoint-status"
          action={
            <RefreshButton
              label="Refresh endpoints"
              busy={endpoints.isFetching || statuses.isFetching}
              onClick={() => {
                void endpoints.refetch();
                void statuses.refetch();
              }}
            />
          }
        >
          <EndpointStatusTable
            rows={rows}
            loading={!!siteId && (endpoints.isPending || statuses.isPending)}
            queries={[endpoints, statuses]}
          />
        </DashboardCard>
      </Box>
    </Box>
  );
}
