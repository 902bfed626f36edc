import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import L from 'leaflet';
import { useEffect, useMemo } from 'react';
import { ImageOverlay, MapContainer, Marker, Popup, useMap } from 'react-leaflet';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import type { FloorMap, MapThing } from '../../api/types';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useSnackbar } from '../../components/Snackbar';
import { useSitePath } from '../session/SiteContext';
import { usePermissions } from '../session/queries';
import { useLabels } from '../settings/queries';
import './leafletIcons';
import { MAP_ZOOM, mapBounds, markerPosition, timeSince } from './mapLogic';
import { MarkerClusterGroup } from './MarkerClusterGroup';
import { useFloorMap, useMapThings } from './queries';

function ThingPopup({ thing }: { thing: MapThing }) {
  const sitePath = useSitePath();
  return (
    <Box data-testid="map-popup" sx={{ minWidth: 160 }}>
      <Link component={RouterLink} to={sitePath(`/things/${thing._id}`)} sx={{ fontWeight: 600 }}>
        {thing.name || thing.tag}
      </Link>
      <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {thing.tag || 'No tag'}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Last event: {timeSince(thing.lastEvent)}
      </Typography>
    </Box>
  );
}

/** Keeps the whole plan in view when the map's box changes size (rotation, drawer, window). */
function FitOnResize({ bounds }: { bounds: L.LatLngBoundsExpression }) {
  const map = useMap();
  useEffect(() => {
    const observer = new ResizeObserver(() => {
      map.invalidateSize();
      map.fitBounds(bounds, { animate: false });
    });
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map, bounds]);
  return null;
}

function FloorPlanMap({ map, things }: { map: FloorMap; things: MapThing[] }) {
  const bounds = useMemo(() => mapBounds(map), [map]);
  return (
    <MapContainer
      crs={L.CRS.Simple}
      bounds={bounds}
      minZoom={MAP_ZOOM.min}
      maxZoom={MAP_ZOOM.max}
      zoomSnap={MAP_ZOOM.step}
      attributionControl={false}
      style={{ height: '100%', width: '100%', background: '#f4f5f7' }}
    >
      <FitOnResize bounds={bounds} />
      <ImageOverlay url={map.image} bounds={bounds} />
      <MarkerClusterGroup showCoverageOnHover={false} maxClusterRadius={40}>
        {things.map((thing) => (
          <Marker
            key={thing._id}
            position={markerPosition(map, thing.xycoordinates)}
            title={thing.name}
          >
            <Popup>
              <ThingPopup thing={thing} />
            </Popup>
          </Marker>
        ))}
      </MarkerClusterGroup>
    </MapContainer>
  );
}

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
          <FloorPlanMap key={plan.image} map={plan} things={shown} />
        </Paper>
      ) : (
        <Alert severity="info">This map has no floor plan yet.</Alert>
      )}
    </Box>
  );
}
