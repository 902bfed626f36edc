import BarChartOutlined from '@mui/icons-material/BarChartOutlined';
import RouterOutlined from '@mui/icons-material/RouterOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import type { ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { useSiteSelection } from '../session/SiteContext';

function DashboardCard({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card data-testid={testId} component="section" aria-label={title}>
      <CardHeader
        title={title}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        sx={{ borderBottom: 1, borderColor: 'divider', py: 1.5 }}
      />
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** The dashboard frame: zone overview and endpoint status. */
export default function HomePage() {
  const { site } = useSiteSelection();
  return (
    <Box>
      <PageHeader title="Home" subtitle={site?.name} />
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' },
          gap: { xs: 2, sm: 3 },
        }}
      >
        <DashboardCard title="Zone Overview" testId="zone-overview">
          <EmptyState
            icon={<BarChartOutlined sx={{ fontSize: 40, opacity: 0.5 }} />}
            message="No zones to show for this site yet."
          />
        </DashboardCard>
        <DashboardCard title="Endpoint Status" testId="endpoint-status">
          <EmptyState
            icon={<RouterOutlined sx={{ fontSize: 40, opacity: 0.5 }} />}
            message="No endpoints have reported to this site yet."
          />
        </DashboardCard>
      </Box>
    </Box>
  );
}
