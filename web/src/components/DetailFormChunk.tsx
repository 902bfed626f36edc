import ArrowBack from '@mui/icons-material/ArrowBack';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Save from '@mui/icons-material/Save';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useForm, useWatch, type FieldErrors, type FieldValues } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../api/client';
import { useSiteNavigate } from '../features/access/SiteContext';
import { ConfirmDialog, deleteConfirmMessage } from './ConfirmDialog';
import { FormField, type FieldDef } from './FormField';
import { parseNumber, validationMessage } from './formRules';
import { PageHeader } from './PageHeader';
import { useSnackbar } from './Snackbar';
import { TAB_PARAM, type DetailFormParts, type DetailFormProps, type TabDef } from './DetailForm';

function valueAt(values: FieldValues, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], values);
}

function errorAt(
  errors: FieldErrors,
  path: string,
): { type?: string; message?: string } | undefined {
  const e = valueAt(errors, path) as { type?: unknown; message?: unknown } | undefined;
  if (!e || typeof e !== 'object' || !('type' in e)) return undefined;
  return { type: String(e.type), message: typeof e.message === 'string' ? e.message : undefined };
}

/** Fields with their value-dependent flags settled for the current values. */
function resolveFields<V extends FieldValues>(fields: FieldDef<V>[] | undefined, values: V) {
  return (fields ?? []).map((f) => ({
    ...f,
    hidden: typeof f.hidden === 'function' ? f.hidden(values) : !!f.hidden,
    disabled: typeof f.disabled === 'function' ? f.disabled(values) : !!f.disabled,
    required: f.requiredWhen ? f.requiredWhen(values) : f.required,
    options: f.optionsWhen ? f.optionsWhen(values) : f.options,
  }));
}

/** Copies the values with number fields parsed; other values (dates!) keep their identity. */
function withNumbers<V extends FieldValues>(values: V, tabs: TabDef<V>[]): V {
  let out: FieldValues = values;
  for (const tab of tabs) {
    for (const f of tab.fields ?? []) {
      if (f.kind !== 'number') continue;
      const keys = f.name.split('.');
      const set = (obj: FieldValues, depth: number): FieldValues => {
        const key = keys[depth];
        const copy = { ...obj };
        copy[key] =
          depth === keys.length - 1
            ? parseNumber(obj[key])
            : set((obj[key] as FieldValues | undefined) ?? {}, depth + 1);
        return copy;
      };
      out = set(out, 0);
    }
  }
  return out as V;
}

/** The generic detail screen: tabs of fields, Save, Delete, and the spec's messages. */
export default function DetailForm<V extends FieldValues, R = unknown>({
  name,
  title,
  id,
  tabs,
  initialValues,
  onSave,
  onDelete,
  parentPath,
  saveAndStay = false,
  pathAfterCreate,
  afterSave,
  canModify,
  canCreate = canModify,
  canDelete = false,
  invalidMessage,
  extraActions,
  saveLabel = 'Save',
  deleteTitle,
  formatError,
  deleteMessage,
  savedMessage,
  savedValues,
  problem,
  layout,
}: DetailFormProps<V, R>) {
  const isNew = id === 'new';
  const navigate = useNavigate();
  const siteNavigate = useSiteNavigate();
  const snackbar = useSnackbar();
  // Typed loosely: V is a generic the form library cannot path into.
  const defaultValues: FieldValues = initialValues;
  const form = useForm({ defaultValues, mode: 'onSubmit' });
  const visibleTabs = tabs.filter((t) => !t.hidden);
  // A link can open a tab by its label (?tab=Photo), e.g. to come back to it.
  const [params] = useSearchParams();
  const [tabIndex, setTabIndex] = useState(() =>
    Math.max(
      0,
      visibleTabs.findIndex((t) => t.label === params.get(TAB_PARAM)),
    ),
  );
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const canSave = isNew ? canCreate : canModify;
  const readOnly = !canSave;

  const goBack = () => (parentPath ? siteNavigate(parentPath) : navigate(-1));

  const onValid = async (raw: FieldValues): Promise<boolean> => {
    const wrong = problem?.(raw as V);
    if (wrong) {
      snackbar.error(wrong);
      return false;
    }
    const values = withNumbers(raw as V, visibleTabs);
    setBusy(true);
    try {
      const saved = await onSave(values);
      snackbar.notify(savedMessage ?? `Saved ${name}`);
      if (afterSave) afterSave(saved, values);
      else if (saveAndStay) {
        form.reset(savedValues ? savedValues(saved) : raw);
        if (isNew && pathAfterCreate) void siteNavigate(pathAfterCreate(saved), { replace: true });
      } else void goBack();
      return true;
    } catch (err) {
      snackbar.error(formatError ? formatError(err, 'save') : `Save failed: ${errorText(err)}`);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const onInvalid = (errors: FieldErrors) => {
    const current = form.getValues() as V;
    const wrong = problem?.(current);
    if (wrong) {
      snackbar.error(wrong);
      return;
    }
    // The first failing field in tab order names itself and its tab; its tab opens.
    for (const [index, tab] of visibleTabs.entries()) {
      for (const f of resolveFields(tab.fields, current)) {
        if (f.hidden) continue;
        const error = errorAt(errors, f.name);
        if (!error) continue;
        setTabIndex(index);
        const custom = error.type !== 'required' ? f.submitMessage : undefined;
        snackbar.error(invalidMessage ?? custom ?? validationMessage(f.label, tab.label, error));
        return;
      }
    }
    snackbar.error(invalidMessage ?? 'Please fill out all required fields');
  };

  const confirmDelete = async () => {
    if (!onDelete) return;
    setBusy(true);
    try {
      await onDelete();
      setConfirmOpen(false);
      snackbar.notify(`Deleted ${name}`);
      void goBack();
    } catch (err) {
      setConfirmOpen(false);
      snackbar.error(formatError ? formatError(err, 'delete') : `Delete failed: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const values = useWatch({ control: form.control }) as V;
  const errors = form.formState.errors;
  const tabHasError = (tab: TabDef<V>) =>
    resolveFields(tab.fields, values).some((f) => !f.hidden && errorAt(errors, f.name));

  const confirmDialog = (
    <ConfirmDialog
      open={confirmOpen}
      title={deleteTitle}
      message={deleteMessage ?? deleteConfirmMessage(name)}
      busy={busy}
      onCancel={() => setConfirmOpen(false)}
      onConfirm={() => void confirmDelete()}
    />
  );

  if (layout) {
    const parts: DetailFormParts<V> = {
      field: (fieldName) => {
        const def = resolveFields(
          visibleTabs.flatMap((t) => t.fields ?? []),
          values,
        ).find((f) => f.name === fieldName);
        return def && !def.hidden ? (
          <FormField field={def} control={form.control} readOnly={readOnly} />
        ) : null;
      },
      values,
      readOnly,
      busy,
      save: () =>
        new Promise<boolean>((resolve) => {
          void form.handleSubmit(
            async (raw) => resolve(await onValid(raw)),
            (errors) => {
              onInvalid(errors);
              resolve(false);
            },
          )();
        }),
      askDelete: () => setConfirmOpen(true),
    };
    return (
      <Box
        component="form"
        noValidate
        onSubmit={(e) => void form.handleSubmit(onValid, onInvalid)(e)}
        data-testid="detail-form"
      >
        {layout(parts)}
        {confirmDialog}
      </Box>
    );
  }

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => void form.handleSubmit(onValid, onInvalid)(e)}
      data-testid="detail-form"
    >
      <PageHeader
        title={
          <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
            <Tooltip title="Back">
              <IconButton aria-label="Back" onClick={() => void goBack()} size="small" edge="start">
                <ArrowBack />
              </IconButton>
            </Tooltip>
            <Box
              component="span"
              title={typeof title === 'string' ? title : undefined}
              sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}
            >
              {title}
            </Box>
          </Box>
        }
        actions={
          <>
            {extraActions}
            {!isNew && canDelete && onDelete && (
              <Button
                color="error"
                variant="outlined"
                startIcon={<DeleteOutline />}
                onClick={() => setConfirmOpen(true)}
                disabled={busy}
              >
                Delete
              </Button>
            )}
            {canSave && (
              <Button type="submit" variant="contained" startIcon={<Save />} disabled={busy}>
                {saveLabel}
              </Button>
            )}
          </>
        }
      />
      <Paper variant="outlined">
        {visibleTabs.length > 1 && (
          <Tabs
            value={tabIndex}
            onChange={(_e, i: number) => setTabIndex(i)}
            variant="scrollable"
            allowScrollButtonsMobile
            sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}
          >
            {visibleTabs.map((tab) => (
              <Tab
                key={tab.label}
                label={tab.label}
                sx={tabHasError(tab) ? { color: 'error.main' } : undefined}
              />
            ))}
          </Tabs>
        )}
        {visibleTabs.map((tab, index) => (
          <Box
            key={tab.label}
            role="tabpanel"
            hidden={index !== tabIndex}
            aria-label={tab.label}
            sx={{ p: { xs: 2, sm: 3 } }}
          >
            {resolveFields(tab.fields, values).some((f) => !f.hidden) && (
              <Box
                sx={{
                  display: 'grid',
                  gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' },
                  gap: 2,
                  alignItems: 'start',
                }}
              >
                {resolveFields(tab.fields, values)
                  .filter((f) => !f.hidden)
                  .map((f) => (
                    <Box
                      key={f.name}
                      sx={{ gridColumn: f.wide ? '1 / -1' : undefined, minWidth: 0 }}
                    >
                      <FormField field={f} control={form.control} readOnly={readOnly} />
                    </Box>
                  ))}
              </Box>
            )}
            {typeof tab.content === 'function' ? tab.content(values) : tab.content}
          </Box>
        ))}
      </Paper>
      {confirmDialog}
    </Box>
  );
}
