import type { OrgSettings } from '../../api/types';
import { DEFAULT_LABELS } from '../../constants';

export interface Labels {
  item: string;
  worker: string;
  itemName: string;
  itemSerial: string;
  hideWorkers: boolean;
}

/** Renamed labels from the organisation settings; empty means the default. */
export function labelsFrom(settings: Partial<OrgSettings> | undefined): Labels {
  const pick = (value: string | null | undefined, fallback: string) =>
    value && value.trim() ? value.trim() : fallback;
  return {
    item: pick(settings?.itemLabel, DEFAULT_LABELS.item),
    worker: pick(settings?.workerLabel, DEFAULT_LABELS.worker),
    itemName: pick(settings?.itemNameLabel, DEFAULT_LABELS.itemName),
    itemSerial: pick(settings?.itemSerialLabel, DEFAULT_LABELS.itemSerial),
    hideWorkers: settings?.hideWorkers ?? false,
  };
}

export interface LabelOverrides {
  itemLabel?: string | null;
  workerLabel?: string | null;
  itemNameLabel?: string | null;
  itemSerialLabel?: string | null;
  hideWorkers?: boolean | null;
}

/** The site's labels where it sets them, else the organisation's (already defaulted). */
export function mergeLabels(org: Labels, site: LabelOverrides | null | undefined): Labels {
  const pick = (value: string | null | undefined, fallback: string) =>
    value && value.trim() ? value.trim() : fallback;
  return {
    item: pick(site?.itemLabel, org.item),
    worker: pick(site?.workerLabel, org.worker),
    itemName: pick(site?.itemNameLabel, org.itemName),
    itemSerial: pick(site?.itemSerialLabel, org.itemSerial),
    hideWorkers: org.hideWorkers || !!site?.hideWorkers,
  };
}
