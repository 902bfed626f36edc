import { describe, expect, it } from 'vitest';
import type { SiteSettings } from '../../api/types';
import { formToSettings, settingsToForm } from './siteSettingsForm';

const loaded: SiteSettings = {
  workerLabel: '',
  itemLabel: 'Assets',
  hideWorkers: false,
  itemNameLabel: '',
  itemSerialLabel: '',
  parentCategories: [],
  thingHeaders: ['serial'],
  flattenEventsExports: false,
  orgTagPrefix: '',
  importSettings: {
    importMappings: [
      { name: 'DEFAULT', headerAssetFields: [{ header: 'Name', assetField: 'name' }] },
    ],
    requireZone: true,
    generatePrefixTag: false,
    prefixedTagDupCheck: false,
  },
};

describe('site settings form', () => {
  it('reads the label header and import flags', () => {
    const form = settingsToForm({ ...loaded, thingHeaders: ['label'] });
    expect(form).toMatchObject({ itemLabel: 'Assets', showLabelHeader: true, requireZone: true });
  });

  it('saves the form over what was loaded, keeping the import mappings', () => {
    const form = {
      ...settingsToForm(loaded),
      itemLabel: ' Equipment ',
      workerLabel: 'Crew',
      hideWorkers: true,
      showLabelHeader: true,
      generatePrefixTag: true,
      orgTagPrefix: ' NW ',
    };
    expect(formToSettings(form, loaded)).toEqual({
      ...loaded,
      itemLabel: 'Equipment',
      workerLabel: 'Crew',
      hideWorkers: true,
      thingHeaders: ['serial', 'label'],
      orgTagPrefix: 'NW',
      importSettings: { ...loaded.importSettings, generatePrefixTag: true },
    });
    const off = formToSettings(
      { ...form, showLabelHeader: false },
      { ...loaded, thingHeaders: ['label'] },
    );
    expect(off.thingHeaders).toEqual([]);
  });
});
