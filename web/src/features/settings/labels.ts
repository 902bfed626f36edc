import { DEFAULT_LABELS } from '../../constants';

export interface Labels {
  item: string;
  worker: string;
  itemName: string;
  itemSerial: string;
  hideWorkers: boolean;
}

/** Label settings as the organization's and the sites' settings carry them. */
export interface LabelOverrides {
  itemLabel?: string | null;
  workerLabel?: string | null;
  itemNameLabel?: string | null;
  itemSerialLabel?: string | null;
  hideWorkers?: boolean | null;
}

/** The overrides' labels where they set one (empty means unset), else the fallbacks. */
export function mergeLabels(
  fallback: Labels,
  overrides: LabelOverrides | null | undefined,
): Labels {
  const pick = (value: string | null | undefined, otherwise: string) =>
    value && value.trim() ? value.trim() : otherwise;
  return {
    item: pick(overrides?.itemLabel, fallback.item),
    worker: pick(overrides?.workerLabel, fallback.worker),
    itemName: pick(overrides?.itemNameLabel, fallback.itemName),
    itemSerial: pick(overrides?.itemSerialLabel, fallback.itemSerial),
    hideWorkers: fallback.hideWorkers || !!overrides?.hideWorkers,
  };
}

/** Renamed labels from the organization settings; empty means the default. */
export function labelsFrom(settings: LabelOverrides | undefined): Labels {
  return mergeLabels({ ...DEFAULT_LABELS, hideWorkers: false }, settings);
}
