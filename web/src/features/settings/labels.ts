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
