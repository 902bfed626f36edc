import AddAPhoto from '@mui/icons-material/AddAPhotoOutlined';
import BrokenImage from '@mui/icons-material/BrokenImageOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import PhotoLibrary from '@mui/icons-material/PhotoLibraryOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type MouseEvent } from 'react';
import type { FieldValues } from 'react-hook-form';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { failureText } from '../../api/client';
import type { Thing } from '../../api/types';
import { TAB_PARAM, type TabDef } from '../../components/DetailForm';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { useSnackbar } from '../../components/Snackbar';
import { Tooltip } from '../../components/Tooltip';
import { imageUrl, useDeleteImages, useUpload } from '../images/queries';
import { RETURN_PARAM } from '../images/search';
import { useSitePath } from '../access/SiteContext';
import { usePermissions } from '../access/queries';
import {
  DELETE_IMAGE_FAILED,
  PhotoTabError,
  savePhotoFailed,
  uploadProgressText,
} from './photoLogic';
import { thingKeys, useThingsCategory } from './queries';

/** The Photo tab (between Zone History and Data); a new thing takes photos once saved. */
export function photoTab<V extends FieldValues>(thing: Thing | undefined, noun: string): TabDef<V> {
  return {
    label: 'Photo',
    content: thing ? (
      <ThingPhotos thing={thing} noun={noun} />
    ) : (
      <EmptyState
        icon={<PhotoLibrary sx={{ fontSize: 40, opacity: 0.5 }} />}
        message={`Photos can be attached once this ${noun} is saved.`}
      />
    ),
  };
}

interface Progress {
  index: number;
  count: number;
  percent: number;
}

function PhotoTile({
  id,
  canRemove,
  onRemove,
}: {
  id: string;
  canRemove: boolean;
  onRemove: () => void;
}) {
  const sitePath = useSitePath();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [broken, setBroken] = useState(false);
  // The image's Exit, and Back, come back to this tab.
  const here = sitePath(`${pathname}?${TAB_PARAM}=Photo`);
  const to = sitePath(`/images/${id}?${new URLSearchParams({ [RETURN_PARAM]: here }).toString()}`);
  const open = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void navigate(here, { replace: true });
    void navigate(to);
  };
  return (
    <Paper
      variant="outlined"
      data-testid="thing-photo"
      data-image-id={id}
      sx={{ position: 'relative', overflow: 'hidden', aspectRatio: '1 / 1' }}
    >
      <ButtonBase
        component={RouterLink}
        to={to}
        onClick={open}
        aria-label="Open photo"
        sx={{ width: '100%', height: '100%', bgcolor: 'action.hover' }}
      >
        {broken ? (
          <BrokenImage sx={{ fontSize: 40, color: 'text.disabled' }} />
        ) : (
          <Box
            component="img"
            src={imageUrl(id, 'thumb')}
            alt="Photo of the thing"
            loading="lazy"
            onError={() => setBroken(true)}
            sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
          />
        )}
      </ButtonBase>
      {canRemove && (
        <Tooltip title="Remove photo">
          <IconButton
            size="small"
            aria-label="Remove photo"
            onClick={onRemove}
            sx={{
              position: 'absolute',
              top: 6,
              right: 6,
              bgcolor: 'background.paper',
              boxShadow: 1,
              '&:hover': { bgcolor: 'background.paper' },
            }}
          >
            <DeleteOutline fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Paper>
  );
}

/** The thing's photos: thumbnails that open the image, attach (with progress) and remove. */
export function ThingPhotos({ thing, noun }: { thing: Thing; noun: string }) {
  const perms = usePermissions();
  const snackbar = useSnackbar();
  const client = useQueryClient();
  const upload = useUpload();
  const thingsCategory = useThingsCategory();
  const removeImages = useDeleteImages();
  const fileInput = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const photos = thing.common.photo ?? [];
  // Only users who may modify images see attach and remove (and the calls' own rights).
  const canModify = perms.can('images', 'modify');
  const canAttach = canModify && perms.can('images', 'create');
  const canRemove = canModify && perms.can('images', 'delete');

  const refreshThing = () => client.invalidateQueries({ queryKey: thingKeys.one(thing._id) });

  const attach = async (files: File[]) => {
    if (files.length === 0) return;
    setProgress({ index: 0, count: files.length, percent: 0 });
    let attached = 0;
    try {
      const category = await thingsCategory.mutateAsync();
      for (const [index, file] of files.entries()) {
        setProgress({ index, count: files.length, percent: 0 });
        try {
          await upload.mutateAsync({
            file,
            fields: { tags: [], categories: [], thing: thing._id, category },
            onProgress: (percent) => setProgress({ index, count: files.length, percent }),
          });
          attached += 1;
        } catch (err) {
          snackbar.error(savePhotoFailed(err));
        }
      }
    } catch (err) {
      snackbar.error(err instanceof PhotoTabError ? err.message : savePhotoFailed(err));
    } finally {
      setProgress(null);
      if (fileInput.current) fileInput.current.value = '';
      if (attached > 0) await refreshThing();
    }
  };

  const confirmRemove = async () => {
    if (!removing) return;
    setBusy(true);
    try {
      await removeImages.mutateAsync([removing]);
      await refreshThing();
      snackbar.notify('Photo removed');
    } catch (err) {
      snackbar.error(failureText(DELETE_IMAGE_FAILED, err));
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  };

  const uploading = progress !== null;

  return (
    <Box sx={{ display: 'grid', gap: 2 }} data-testid="thing-photos">
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 1,
        }}
      >
        <Typography variant="body2" color="text.secondary">
          {photos.length === 0 ? '' : photos.length === 1 ? '1 photo' : `${photos.length} photos`}
        </Typography>
        {canAttach && (
          <Button
            variant="contained"
            startIcon={<AddAPhoto />}
            loading={uploading}
            loadingPosition="start"
            onClick={() => fileInput.current?.click()}
          >
            Attach photos
          </Button>
        )}
        <input
          ref={fileInput}
          type="file"
          accept="image/*,.heic,.heif"
          multiple
          hidden
          data-testid="photo-input"
          onChange={(e) => void attach([...(e.target.files ?? [])])}
        />
      </Box>
      {progress && (
        <Box data-testid="photo-upload" aria-live="polite">
          <Typography variant="body2" sx={{ mb: 0.5 }}>
            Uploading{' '}
            <span data-testid="photo-upload-progress">
              {uploadProgressText(progress.index, progress.count, progress.percent)}
            </span>
          </Typography>
          <LinearProgress
            variant="determinate"
            value={progress.percent}
            aria-label="Photo upload"
          />
        </Box>
      )}
      {photos.length === 0 ? (
        <EmptyState
          icon={<PhotoLibrary sx={{ fontSize: 40, opacity: 0.5 }} />}
          message={
            canAttach
              ? `No photos of this ${noun} yet. Attach one to show it here.`
              : `No photos of this ${noun} yet.`
          }
        />
      ) : (
        <Box
          sx={{
            display: 'grid',
            gap: 1.5,
            gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
          }}
        >
          {photos.map((id) => (
            <PhotoTile key={id} id={id} canRemove={canRemove} onRemove={() => setRemoving(id)} />
          ))}
        </Box>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove Photo"
        message="Are you sure you want to remove this photo? The image is deleted and this action cannot be undone."
        busy={busy}
        onCancel={() => setRemoving(null)}
        onConfirm={() => void confirmRemove()}
      />
    </Box>
  );
}
