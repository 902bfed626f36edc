import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CategoryPicker, TagPicker, type CategoryChoice } from './LabelPickers';

export interface BulkChanges {
  addTags: string[];
  removeTags: string[];
  addCategories: string[];
  removeCategories: string[];
}

export function bulkEditMessage(count: number): string {
  return `Are you sure you want to edit ${count} selected image(s)?`;
}

/** Tags and categories to add or remove on many images, confirmed before it runs. */
export function BulkEditDialog({
  open,
  count,
  busy,
  onApply,
  onClose,
}: {
  open: boolean;
  count: number;
  busy: boolean;
  onApply: (changes: BulkChanges) => void;
  onClose: () => void;
}) {
  const [addTags, setAddTags] = useState<string[]>([]);
  const [removeTags, setRemoveTags] = useState<string[]>([]);
  const [addCategories, setAddCategories] = useState<CategoryChoice[]>([]);
  const [removeCategories, setRemoveCategories] = useState<CategoryChoice[]>([]);
  const [confirming, setConfirming] = useState(false);
  const empty =
    addTags.length + removeTags.length + addCategories.length + removeCategories.length === 0;
  const reset = () => {
    setAddTags([]);
    setRemoveTags([]);
    setAddCategories([]);
    setRemoveCategories([]);
    setConfirming(false);
  };
  return (
    <>
      <Dialog open={open && !confirming} onClose={onClose} fullWidth maxWidth="sm">
        <DialogTitle>Edit {count} image(s)</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <CategoryPicker
              label="Add Categories"
              value={addCategories}
              onChange={setAddCategories}
            />
            <TagPicker label="Add Tags" value={addTags} onChange={setAddTags} />
            <CategoryPicker
              label="Remove Categories"
              value={removeCategories}
              onChange={setRemoveCategories}
            />
            <TagPicker label="Remove Tags" value={removeTags} onChange={setRemoveTags} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              reset();
              onClose();
            }}
          >
            Cancel
          </Button>
          <Button variant="contained" disabled={empty} onClick={() => setConfirming(true)}>
            Apply
          </Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={open && confirming}
        title="Edit Images"
        message={bulkEditMessage(count)}
        confirmLabel="Edit"
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          onApply({
            addTags,
            removeTags,
            addCategories: addCategories.map((c) => c.id),
            removeCategories: removeCategories.map((c) => c.id),
          });
          reset();
        }}
      />
    </>
  );
}
