import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { failureText } from '../../api/client';
import type { FloorMap } from '../../api/types';
import { ConfirmDialog, deleteConfirmMessage } from '../../components/ConfirmDialog';
import { LoadGate } from '../../components/LoadGate';
import { SiteReady } from '../../components/SiteReady';
import { PageHeader } from '../../components/PageHeader';
import { useSnackbar } from '../../components/Snackbar';
import { useSiteNavigate, useSitePath, useSiteSelection } from '../session/SiteContext';
import { usePermissions } from '../session/queries';
import { FloorPlanPlacer } from './FloorPlanPlacer';
import { formToMap, mapFormProblem, mapToForm, type MapForm } from './mapForm';
import {
  useCreateFloorMapWithPlan,
  useDeleteFloorMap,
  useFloorMap,
  useSaveFloorMap,
  useUploadFloorPlan,
} from './queries';

const PLAN_TYPES = 'image/png,image/jpeg,image/webp,image/heic,.heic';

function MapEditor({ id, map }: { id: string; map: FloorMap | undefined }) {
  const isNew = id === 'new';
  const perms = usePermissions();
  const selection = useSiteSelection();
  const navigate = useSiteNavigate();
  const sitePath = useSitePath();
  const snackbar = useSnackbar();
  const save = useSaveFloorMap();
  const upload = useUploadFloorPlan();
  const createWithPlan = useCreateFloorMapWithPlan();
  const remove = useDeleteFloorMap();
  const [form, setForm] = useState<MapForm>(() => mapToForm(map));
  const [file, setFile] = useState<File | null>(null);
  const [nameMissing, setNameMissing] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // Percent of the floor plan sent; 100 while the server stores it; null when idle.
  const [progress, setProgress] = useState<number | null>(null);
  const site = map?.site ?? (selection.isAllSites ? '' : (selection.siteId ?? ''));
  const canSave = isNew ? perms.can('maps', 'create') : perms.can('maps', 'modify');
  const field = (key: keyof MapForm) => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) =>
      setForm((f) => ({ ...f, [key]: e.target.value })),
    slotProps: { input: { readOnly: !canSave } },
  });

  const onSave = async () => {
    const problem = mapFormProblem(form);
    setNameMissing(!form.name.trim());
    if (problem) {
      snackbar.error(problem);
      return;
    }
    setBusy(true);
    try {
      const body = formToMap(form, site);
      let saved: FloorMap;
      // A new map and its plan are one request, so a refused picture leaves no map behind.
      if (isNew && file) {
        setProgress(0);
        saved = await createWithPlan.mutateAsync({ body, file, onProgress: setProgress });
      } else {
        saved = await save.mutateAsync({ id, body });
        if (file) {
          setProgress(0);
          saved = await upload.mutateAsync({ id: saved._id, file, onProgress: setProgress });
        }
      }
      setFile(null);
      setForm(mapToForm(saved));
      snackbar.notify('Saved');
      if (isNew) navigate(`/maps/${saved._id}`, { replace: true });
    } catch (err) {
      snackbar.error(failureText('Failed to save', err));
    } finally {
      setProgress(null);
      setBusy(false);
    }
  };

  const onDelete = async () => {
    setBusy(true);
    try {
      await remove.mutateAsync(id);
      setConfirmOpen(false);
      snackbar.notify('Deleted map');
      navigate('/maps');
    } catch (err) {
      setConfirmOpen(false);
      snackbar.error(failureText('Delete failed', err));
    } finally {
      setBusy(false);
    }
  };

  if (isNew && !site) {
    return <Alert severity="info">Choose one site in the menu to add a map to it.</Alert>;
  }

  return (
    <Box>
      <PageHeader
        title={isNew ? 'Add Map' : (map?.name ?? 'Map')}
        actions={
          <>
            {!isNew && map?.image && (
              <Button component={RouterLink} to={sitePath(`/mapview/${id}`)}>
                Open Map View
              </Button>
            )}
            {!isNew && perms.can('maps', 'delete') && (
              <Button color="error" onClick={() => setConfirmOpen(true)} disabled={busy}>
                Delete
              </Button>
            )}
            {canSave && (
              <Button variant="contained" onClick={() => void onSave()} disabled={busy}>
                Save
              </Button>
            )}
          </>
        }
      />
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent
          component="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void onSave();
          }}
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, minmax(0, 1fr))' },
          }}
        >
          <TextField
            label="Name"
            required
            {...field('name')}
            error={nameMissing}
            helperText={nameMissing ? 'Please fill out this field.' : undefined}
            sx={{ gridColumn: '1 / -1' }}
          />
          <TextField label="TopLeft X" inputMode="decimal" {...field('left')} />
          <TextField label="TopLeft Y" inputMode="decimal" {...field('top')} />
          <TextField label="BotRight X" inputMode="decimal" {...field('right')} />
          <TextField label="BotRight Y" inputMode="decimal" {...field('bottom')} />
          <Box
            sx={{
              gridColumn: '1 / -1',
              display: 'flex',
              gap: 2,
              alignItems: 'center',
              flexWrap: 'wrap',
            }}
          >
            {canSave && (
              <Button component="label" variant="outlined" startIcon={<UploadFileOutlined />}>
                {map?.image ? 'Replace Floor Plan' : 'Choose Floor Plan'}
                <input
                  hidden
                  type="file"
                  accept={PLAN_TYPES}
                  data-testid="floor-plan-file"
                  onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                />
              </Button>
            )}
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ minWidth: 0, overflowWrap: 'anywhere' }}
            >
              {file
                ? `${file.name}: saved with the map`
                : map?.image
                  ? `${map.imageWidth} × ${map.imageHeight} px floor plan`
                  : 'A JPEG, PNG, WebP or HEIC picture of the floor plan.'}
            </Typography>
          </Box>
          {progress !== null && (
            <Box sx={{ gridColumn: '1 / -1' }} data-testid="floor-plan-progress">
              <LinearProgress
                variant={progress < 100 ? 'determinate' : 'indeterminate'}
                value={progress < 100 ? progress : undefined}
                aria-label="Floor plan upload"
              />
              <Typography variant="caption" color="text.secondary">
                {progress < 100 ? `Uploading floor plan: ${progress}%` : 'Processing floor plan…'}
              </Typography>
            </Box>
          )}
          <button type="submit" hidden />
        </CardContent>
      </Card>
      {map?.image ? (
        <FloorPlanPlacer map={map} readOnly={!perms.can('maps', 'modify')} />
      ) : (
        !isNew && (
          <Alert severity="info">Upload a floor plan to place endpoints and tags on it.</Alert>
        )
      )}
      <ConfirmDialog
        open={confirmOpen}
        message={deleteConfirmMessage('map')}
        busy={busy}
        onConfirm={() => void onDelete()}
        onCancel={() => setConfirmOpen(false)}
      />
    </Box>
  );
}

export default function MapEditPage() {
  const { id = 'new' } = useParams();
  if (id === 'new')
    return (
      <SiteReady>
        <MapEditor key="new" id={id} map={undefined} />
      </SiteReady>
    );
  return <ExistingMap id={id} />;
}

function ExistingMap({ id }: { id: string }) {
  const query = useFloorMap(id);
  return (
    <LoadGate query={query} name="map">
      {(map) => <MapEditor key={`${map._id}:${map.image}`} id={id} map={map} />}
    </LoadGate>
  );
}
