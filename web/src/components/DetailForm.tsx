import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { FieldDef } from './FormField';
import { Loading } from './Loading';

export interface TabDef<V extends FieldValues> {
  label: string;
  fields?: FieldDef<V>[];
  /** Extra content below the fields (or the whole tab), e.g. a related list. */
  content?: ReactNode | ((values: V) => ReactNode);
  hidden?: boolean;
}

/** What a screen that draws its own layout gets from the form. */
export interface DetailFormParts<V extends FieldValues> {
  /** One of the tabs' fields, by its name, bound to the form. */
  field: (name: string) => ReactNode;
  values: V;
  readOnly: boolean;
  /** A save or delete is under way. */
  busy: boolean;
  /** Checks and saves, as a submit does; true once saved. */
  save: () => Promise<boolean>;
  /** Opens the delete confirmation. */
  askDelete: () => void;
}

export interface DetailFormProps<V extends FieldValues, R = unknown> {
  /** Entity name for messages: 'Saved {name}', 'delete this {name}'. */
  name: string;
  title: ReactNode;
  /** 'new' creates (POST); anything else updates (PUT). */
  id: string;
  tabs: TabDef<V>[];
  initialValues: V;
  onSave: (values: V) => Promise<R>;
  onDelete?: () => Promise<unknown>;
  /** Where to return after saving or deleting; without it, back one step. */
  parentPath?: string;
  /** Stay on the form after saving (with the saved record's path for a new one). */
  saveAndStay?: boolean;
  pathAfterCreate?: (saved: R) => string;
  /** Replaces the usual navigation after a successful save. */
  afterSave?: (saved: R, values: V) => void;
  canModify: boolean;
  canCreate?: boolean;
  canDelete?: boolean;
  /** Overall text for an invalid form instead of the per-field message. */
  invalidMessage?: string;
  extraActions?: ReactNode;
  saveLabel?: string;
  /** Title of the delete confirmation (none by default). */
  deleteTitle?: string;
  /** Formats a failed save or delete; default 'Save failed: {message}' / 'Delete failed: ...'. */
  formatError?: (err: unknown, action: 'save' | 'delete') => string;
  /** The delete confirmation's text, instead of the usual one. */
  deleteMessage?: ReactNode;
  /** The snackbar text after a save, instead of 'Saved {name}'. */
  savedMessage?: string;
  /** With saveAndStay: the form's values from the saved record (default: the values sent). */
  savedValues?: (saved: R) => V;
  /** A rule over the whole form, checked before the fields' own messages: its message is shown. */
  problem?: (values: V) => string | null;
  /** Draws the screen from the form's parts (and its own Save) instead of the header and tabs. */
  layout?: (parts: DetailFormParts<V>) => ReactNode;
}

/** The URL parameter naming the tab a detail screen opens on. */
export const TAB_PARAM = 'tab';

// The form's code (react-hook-form, tabs, field kinds, about 30 KiB gzipped) is asked for as
// soon as a detail screen's chunk loads, so it arrives while the record is being fetched.
const load = () => import('./DetailFormChunk');
const loading = load();
const Form = lazy(() => loading) as unknown as ComponentType<DetailFormProps<FieldValues>>;

/** The generic detail screen: tabs of fields, Save, Delete, and the spec's messages. */
export function DetailForm<V extends FieldValues, R = unknown>(props: DetailFormProps<V, R>) {
  return (
    <Suspense fallback={<Loading />}>
      <Form {...(props as unknown as DetailFormProps<FieldValues>)} />
    </Suspense>
  );
}
