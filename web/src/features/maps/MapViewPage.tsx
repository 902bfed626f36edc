import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useSnackbar } from '../../components/Snackbar';
import { useSitePath } from '../access/SiteContext';
import { usePermissions } from '../access/queries';
import { useLabels } from '../settings/queries';
import { useFloorMap, useMapThings } from './queries';

// Leaflet (about 60 KiB gzipped) loads in its own chunk, after the page around it shows.
const FloorPlanMap = lazy(() => import('./FloorPlanMap'));

/** A floor plan with the things last read on it, clustered; it refreshes every 10 s. */
export default function MapViewPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const search = params.get('search') ?? '';
  const map = useFloorMap(id);
  const things = useMapThings(id, search, map.isSuccess);
  const labels = useLabels();
  const perms = usePermissions();
  const sitePath = useSitePath();
  const snackbar = useSnackbar();

  useEffect(() => {
    if (map.isError) snackbar.error('Failed to load map');
  }, [map.isError, snackbar]);
  useEffect(() => {
    if (things.isError) snackbar.error('Failed to load locations');
  }, [things.isError, snackbar]);

  const shown = useMemo(
    () => (things.data ?? []).filter((t) => !(labels.hideWorkers && t.class === 'worker')),
    [things.data, labels.hideWorkers],
  );

  if (map.isPending) return <Loading minHeight={300} />;
  if (map.isError) return <Alert severity="error">Failed to load map</Alert>;
  const plan = map.data;
  const count = shown.length;
  return (
    <Box>
      <PageHeader
        title={plan.name}
        subtitle={`${count} ${count === 1 ? 'thing' : 'things'} on this map`}
        actions={
          perms.can('maps', 'modify') && (
            <Button component={RouterLink} to={sitePath(`/maps/${plan._id}`)} variant="outlined">
              Edit Map
            </Button>
          )
        }
      />
      {plan.image ? (
        <Paper
          variant="outlined"
          data-testid="map-view"
          sx={{
            // A definite height: the map fills it.
            height: { xs: '65vh', sm: 'max(480px, calc(100vh - 180px))' },
            overflow: 'hidden',
          }}
        >
          <Suspense fallback={<Loading label="Loading map" minHeight="100%" />}>
            <FloorPlanMap key={plan.image} map={plan} things={shown} />
          </Suspense>
        </Paper>
      ) : (
        <Alert severity="info">This map has no floor plan yet.</Alert>
      )}
    </Box>
  );
}
