/** The Settings screen's values and their mapping to and from the API (logic only). */
import type { SiteSettings } from '../../api/types';

export const LABEL_HEADER = 'label';

export interface SiteSettingsForm {
  workerLabel: string;
  itemLabel: string;
  hideWorkers: boolean;
  itemNameLabel: string;
  itemSerialLabel: string;
  parentCategories: string[];
  showLabelHeader: boolean;
  flattenEventsExports: boolean;
  orgTagPrefix: string;
  prefixedTagDupCheck: boolean;
  generatePrefixTag: boolean;
  requireZone: boolean;
}

export function settingsToForm(settings: SiteSettings): SiteSettingsForm {
  const imports = settings.importSettings;
  return {
    workerLabel: settings.workerLabel ?? '',
    itemLabel: settings.itemLabel ?? '',
    hideWorkers: settings.hideWorkers ?? false,
    itemNameLabel: settings.itemNameLabel ?? '',
    itemSerialLabel: settings.itemSerialLabel ?? '',
    parentCategories: settings.parentCategories ?? [],
    showLabelHeader: (settings.thingHeaders ?? []).includes(LABEL_HEADER),
    flattenEventsExports: settings.flattenEventsExports ?? false,
    orgTagPrefix: settings.orgTagPrefix ?? '',
    prefixedTagDupCheck: imports?.prefixedTagDupCheck ?? false,
    generatePrefixTag: imports?.generatePrefixTag ?? false,
    requireZone: imports?.requireZone ?? false,
  };
}

/** The settings to save: the form over what was loaded (other fields kept as they were). */
export function formToSettings(form: SiteSettingsForm, loaded: SiteSettings): SiteSettings {
  const headers = (loaded.thingHeaders ?? []).filter((h) => h !== LABEL_HEADER);
  return {
    ...loaded,
    workerLabel: form.workerLabel.trim(),
    itemLabel: form.itemLabel.trim(),
    hideWorkers: form.hideWorkers,
    itemNameLabel: form.itemNameLabel.trim(),
    itemSerialLabel: form.itemSerialLabel.trim(),
    parentCategories: form.parentCategories,
    thingHeaders: form.showLabelHeader ? [...headers, LABEL_HEADER] : headers,
    flattenEventsExports: form.flattenEventsExports,
    orgTagPrefix: form.orgTagPrefix.trim(),
    importSettings: {
      ...loaded.importSettings,
      prefixedTagDupCheck: form.prefixedTagDupCheck,
      generatePrefixTag: form.generatePrefixTag,
      requireZone: form.requireZone,
    },
  };
}
