import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState, type MouseEvent } from 'react';
import { errorText } from '../../api/client';
import type { FloorMap } from '../../api/types';
import { useSnackbar } from '../../components/Snackbar';
import { endpointsListQuery, useSaveEndpoint } from '../endpoints/queries';
import { locationTagsListQuery, useSaveLocationTag } from '../locationtags/queries';
import { clickFraction, isPlaced } from './mapLogic';
import {
  KIND_LABELS,
  placeables,
  placementOf,
  type Placeable,
  type PlaceableKind,
} from './placement';

const ALL = { page: 0, limit: 3000, sort: 'name', search: '' };
const COLORS: Record<PlaceableKind, string> = {
  endpoint: '#1565c0',
  antenna: '#7b1fa2',
  locationtag: '#2e7d32',
};

function where(entry: Placeable, mapId: string): string {
  if (entry.map === mapId && isPlaced(entry.xy)) return 'On this map';
  if (entry.map) return 'On another map';
  return 'Not placed';
}

/**
 * The floor plan with the site's endpoints, antennas and location tags on it: choose one,
 * then click the plan to place it there (saved at once through its own API).
 */
export function FloorPlanPlacer({ map, readOnly }: { map: FloorMap; readOnly: boolean }) {
  const endpoints = useQuery(endpointsListQuery(map.site)(ALL));
  const tags = useQuery(locationTagsListQuery(map.site)(ALL));
  const saveEndpoint = useSaveEndpoint();
  const saveTag = useSaveLocationTag();
  const snackbar = useSnackbar();
  const plan = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const entries = useMemo(
    () => placeables(endpoints.data?.rows ?? [], tags.data?.rows ?? []),
    [endpoints.data, tags.data],
  );
  const here = entries.filter((e) => e.map === map._id && isPlaced(e.xy));
  const chosen = entries.find((e) => e.key === selected);

  const place = async (entry: Placeable, mapId: string, xy: number[]) => {
    setBusy(true);
    try {
      const placement = placementOf(entry, mapId, xy);
      if (placement.kind === 'endpoint') {
        await saveEndpoint.mutateAsync({ id: placement.id, body: placement.body });
      } else {
        await saveTag.mutateAsync({ id: placement.id, body: placement.body });
      }
      snackbar.notify('Saved');
    } catch (err) {
      snackbar.error(`Failed to save: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const onPlanClick = (event: MouseEvent<HTMLDivElement>) => {
    if (!chosen || readOnly || busy || !plan.current) return;
    const xy = clickFraction(plan.current.getBoundingClientRect(), event.clientX, event.clientY);
    void place(chosen, map._id, xy);
  };

  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr', md: 'minmax(220px, 300px) minmax(0, 1fr)' },
        alignItems: 'start',
      }}
    >
      <Paper variant="outlined" sx={{ maxHeight: { xs: 260, md: 560 }, overflow: 'auto' }}>
        <List
          dense
          component="div"
          role="group"
          aria-label="Place on the floor plan"
          data-testid="placeables"
        >
          {entries.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              This site has no endpoints or location tags yet.
            </Typography>
          )}
          {entries.map((entry) => (
            <ListItemButton
              key={entry.key}
              selected={entry.key === selected}
              onClick={() => setSelected(entry.key === selected ? null : entry.key)}
              sx={{ pl: entry.kind === 'antenna' ? 4 : 2 }}
            >
              <Box
                component="span"
                sx={{
                  width: 10,
                  height: 10,
                  borderRadius: '50%',
                  bgcolor: COLORS[entry.kind],
                  mr: 1.5,
                  flex: 'none',
                }}
              />
              <ListItemText
                primary={entry.label}
                secondary={`${KIND_LABELS[entry.kind]} · ${where(entry, map._id)}`}
                slotProps={{ primary: { noWrap: true, title: entry.label } }}
              />
            </ListItemButton>
          ))}
        </List>
      </Paper>
      <Box sx={{ minWidth: 0 }}>
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            flexWrap: 'wrap',
            mb: 1,
            minHeight: 36,
          }}
        >
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 200 }}>
            {readOnly
              ? 'Endpoints, antennas and location tags on this floor plan.'
              : chosen
                ? `Click on the floor plan to place ${chosen.label}.`
                : 'Choose an endpoint, antenna or location tag, then click on the floor plan.'}
          </Typography>
          {chosen && !readOnly && chosen.map === map._id && isPlaced(chosen.xy) && (
            <Button size="small" disabled={busy} onClick={() => void place(chosen, '', [0, 0])}>
              Remove from map
            </Button>
          )}
        </Box>
        <Box
          ref={plan}
          onClick={onPlanClick}
          data-testid="floor-plan"
          sx={{
            position: 'relative',
            border: 1,
            borderColor: 'divider',
            lineHeight: 0,
            cursor: chosen && !readOnly ? 'crosshair' : 'default',
            userSelect: 'none',
          }}
        >
          <Box
            component="img"
            src={map.image}
            alt={`Floor plan of ${map.name}`}
            draggable={false}
            sx={{ width: '100%', height: 'auto', display: 'block' }}
          />
          {here.map((entry) => (
            <Box
              key={entry.key}
              data-testid="placed-marker"
              title={entry.label}
              sx={{
                position: 'absolute',
                left: `${entry.xy[0] * 100}%`,
                top: `${entry.xy[1] * 100}%`,
                transform: 'translate(-50%, -50%)',
                width: entry.key === selected ? 18 : 12,
                height: entry.key === selected ? 18 : 12,
                borderRadius: '50%',
                bgcolor: COLORS[entry.kind],
                border: '2px solid #fff',
                boxShadow: 1,
                pointerEvents: 'none',
              }}
            />
          ))}
        </Box>
      </Box>
    </Box>
  );
}
