/** The map form's values and their mapping to and from the API (logic only). */
import type { FloorMap, FloorMapWrite } from '../../api/types';

export interface MapForm {
  name: string;
  left: string;
  top: string;
  right: string;
  bottom: string;
}

const text = (value: number | undefined, fallback: number) => String(value ?? fallback);

export function mapToForm(map: FloorMap | undefined): MapForm {
  return {
    name: map?.name ?? '',
    left: text(map?.topLeft?.[0], 0),
    top: text(map?.topLeft?.[1], 1000),
    right: text(map?.botRight?.[0], 1000),
    bottom: text(map?.botRight?.[1], 0),
  };
}

/** The first problem of the form, or null: the name is required, corners are numbers. */
export function mapFormProblem(form: MapForm): string | null {
  if (!form.name.trim()) return 'Name is a required field.';
  const numbers = [form.left, form.top, form.right, form.bottom];
  if (numbers.some((v) => v.trim() === '' || !Number.isFinite(Number(v)))) {
    return 'The corners must be numbers.';
  }
  if (Number(form.left) === Number(form.right) || Number(form.top) === Number(form.bottom)) {
    return 'TopLeft and BotRight must differ in both X and Y.';
  }
  return null;
}

export function formToMap(form: MapForm, site: string): FloorMapWrite {
  return {
    name: form.name.trim(),
    site,
    topLeft: [Number(form.left), Number(form.top)],
    botRight: [Number(form.right), Number(form.bottom)],
  };
}
