import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import L from 'leaflet';
import { useEffect, useMemo } from 'react';
import { ImageOverlay, MapContainer, Marker, Popup, useMap } from 'react-leaflet';
import { Link as RouterLink } from 'react-router';
import type { FloorMap, MapThing } from '../../api/types';
import { useSitePath } from '../access/SiteContext';
import './leafletIcons';
import { MAP_ZOOM, mapBounds, markerPosition, timeSince } from './mapLogic';
import { MarkerClusterGroup } from './MarkerClusterGroup';

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

/** The plan with its things as clustered markers (Leaflet). */
export default function FloorPlanMap({ map, things }: { map: FloorMap; things: MapThing[] }) {
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
