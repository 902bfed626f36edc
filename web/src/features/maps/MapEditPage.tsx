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
import { DetailForm } from '../../components/DetailForm';
import type { FieldDef } from '../../components/FormField';
import { LoadGate } from '../../components/LoadGate';
import { fieldText } from '../../components/formRules';
import { SiteReady } from '../../components/SiteReady';
import { PageHeader } from '../../components/PageHeader';
import { useSitePath, useSiteSelection } from '../access/SiteContext';
import { usePermissions } from '../access/queries';
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

const coordinate = (name: keyof MapForm, label: string): FieldDef<MapForm> => ({
  name,
  label,
  kind: 'custom',
  render: ({ value, onChange, readOnly }) => (
    <TextField
      label={label}
      inputMode="decimal"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ input: { readOnly } }}
    />
  ),
});

const FIELDS: FieldDef<MapForm>[] = [
  {
    name: 'name',
    label: 'Name',
    kind: 'custom',
    ownErrors: true,
    // Blank (or only spaces) is missing; the snackbar says so through the form's problem.
    validate: (value) => fieldText(value).trim() !== '' || 'missing',
    render: ({ value, onChange, readOnly, invalid }) => (
      <TextField
        label="Name"
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
        slotProps={{ input: { readOnly } }}
        error={invalid}
        helperText={invalid ? 'Please fill out this field.' : undefined}
        sx={{ gridColumn: '1 / -1' }}
      />
    ),
  },
  coordinate('left', 'TopLeft X'),
  coordinate('top', 'TopLeft Y'),
  coordinate('right', 'BotRight X'),
  coordinate('bottom', 'BotRight Y'),
];

function MapEditor({ id, map }: { id: string; map: FloorMap | undefined }) {
  const isNew = id === 'new';
  const perms = usePermissions();
  const selection = useSiteSelection();
  const sitePath = useSitePath();
  const save = useSaveFloorMap();
  const upload = useUploadFloorPlan();
  const createWithPlan = useCreateFloorMapWithPlan();
  const remove = useDeleteFloorMap();
  const [file, setFile] = useState<File | null>(null);
  // Percent of the floor plan sent; 100 while the server stores it; null when idle.
  const [progress, setProgress] = useState<number | null>(null);
  const site = map?.site ?? (selection.isAllSites ? '' : (selection.siteId ?? ''));

  const onSave = async (form: MapForm): Promise<FloorMap> => {
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
      return saved;
    } finally {
      setProgress(null);
    }
  };

  if (isNew && !site) {
    return <Alert severity="info">Choose one site in the menu to add a map to it.</Alert>;
  }

  return (
    <Box>
      <DetailForm<MapForm, FloorMap>
        name="map"
        title={isNew ? 'Add Map' : (map?.name ?? 'Map')}
        id={id}
        tabs={[{ label: 'Map', fields: FIELDS }]}
        initialValues={mapToForm(map)}
        onSave={onSave}
        onDelete={() => remove.mutateAsync(id)}
        parentPath="/maps"
        saveAndStay
        savedValues={mapToForm}
        pathAfterCreate={(saved) => `/maps/${saved._id}`}
        savedMessage="Saved"
        problem={mapFormProblem}
        formatError={(err, action) =>
          failureText(action === 'save' ? 'Failed to save' : 'Delete failed', err)
        }
        canModify={perms.can('maps', 'modify')}
        canCreate={perms.can('maps', 'create')}
        canDelete={perms.can('maps', 'delete')}
        layout={({ field, readOnly, busy, askDelete }) => (
          <>
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
                    <Button color="error" onClick={askDelete} disabled={busy}>
                      Delete
                    </Button>
                  )}
                  {!readOnly && (
                    <Button type="submit" variant="contained" disabled={busy}>
                      Save
                    </Button>
                  )}
                </>
              }
            />
            <Card variant="outlined" sx={{ mb: 2 }}>
              <CardContent
                sx={{
                  display: 'grid',
                  gap: 2,
                  gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, minmax(0, 1fr))' },
                }}
              >
                {field('name')}
                {field('left')}
                {field('top')}
                {field('right')}
                {field('bottom')}
                <Box
                  sx={{
                    gridColumn: '1 / -1',
                    display: 'flex',
                    gap: 2,
                    alignItems: 'center',
                    flexWrap: 'wrap',
                  }}
                >
                  {!readOnly && (
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
                      {progress < 100
                        ? `Uploading floor plan: ${progress}%`
                        : 'Processing floor plan…'}
                    </Typography>
                  </Box>
                )}
              </CardContent>
            </Card>
            {/* Inside the form's layout, so it shows with the form, not before its code loads. */}
            {map?.image ? (
              <FloorPlanPlacer map={map} readOnly={!perms.can('maps', 'modify')} />
            ) : (
              !isNew && (
                <Alert severity="info">
                  Upload a floor plan to place endpoints and tags on it.
                </Alert>
              )
            )}
          </>
        )}
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
