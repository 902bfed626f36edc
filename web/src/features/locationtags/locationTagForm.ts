/** The location tag form's values and their mapping to and from the API (logic only). */
import type { LocationTag, LocationTagWrite } from '../../api/types';
import { coordinateText, toXY } from '../endpoints/endpointForm';

export interface LocationTagForm {
  name: string;
  tag: string;
  site: string;
  zone: string;
  map: string;
  x: string | number | null;
  y: string | number | null;
}

/** The zone select's 'no zone' choice. */
export const NO_ZONE = '';

export function locationTagToForm(tag: LocationTag | undefined, site: string): LocationTagForm {
  return {
    name: tag?.name ?? '',
    tag: tag?.tag ?? '',
    site: tag?.site ?? site,
    zone: tag?.zone ?? NO_ZONE,
    map: tag?.map ?? '',
    x: coordinateText(tag?.xycoordinates?.[0]),
    y: coordinateText(tag?.xycoordinates?.[1]),
  };
}

export function formToLocationTag(form: LocationTagForm): LocationTagWrite {
  return {
    name: form.name.trim(),
    // The server keeps tags in upper case; sending it so avoids a surprise on reload.
    tag: form.tag.trim().toUpperCase(),
    site: form.site,
    zone: form.zone === NO_ZONE ? null : form.zone,
    map: form.map.trim(),
    xycoordinates: toXY(form.x, form.y),
  };
}

/** The list's Coordinates column: 'x, y'. */
export function formatCoordinates(xy: readonly number[] | null | undefined): string {
  if (!xy || xy.length < 2) return '';
  return `${xy[0]}, ${xy[1]}`;
}
