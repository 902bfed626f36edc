import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import type { Thing } from '../../api/types';
import { saveBlob } from '../../components/download';
import { GenericList, type ListColumn } from '../../components/GenericList';
import { useSnackbar } from '../../components/Snackbar';
import { useSiteSelection } from '../access/SiteContext';
import { usePermissions } from '../access/queries';
import { useSiteLabels, useSiteSettings } from '../settings/queries';
import { LABEL_HEADER } from '../settings/siteSettingsForm';
import { downloadThingsExport, thingsListQuery, useDeleteThing } from './queries';
import { formatThingDateOrNA, listPathOf, tagDisplay, type ThingClass } from './thingLogic';
import { TagText } from './TagText';

/** The Items or Workers list: one implementation, parameterised by the class. */
export function ThingsList({ thingClass }: { thingClass: ThingClass }) {
  const perms = usePermissions();
  const { siteId } = useSiteSelection();
  const labels = useSiteLabels(siteId);
  // The site's Settings can add a Labels column (thingHeaders holds 'label').
  const showLabels = (useSiteSettings(siteId).data?.thingHeaders ?? []).includes(LABEL_HEADER);
  const [params] = useSearchParams();
  const snackbar = useSnackbar();
  const remove = useDeleteThing();
  const [downloading, setDownloading] = useState(false);
  const resource = thingClass === 'worker' ? 'workers' : 'items';
  const title = thingClass === 'worker' ? labels.worker : labels.item;
  const basePath = listPathOf(thingClass);

  const columns = useMemo<ListColumn<Thing>[]>(
    () => [
      {
        field: 'name',
        headerName: labels.itemName,
        minWidth: 150,
        valueGetter: (_v, row) => row.common.name,
      },
      {
        field: 'serial',
        headerName: labels.itemSerial,
        minWidth: 120,
        hideOnMobile: true,
        valueGetter: (_v, row) => row.common.serial,
      },
      {
        field: 'tag',
        headerName: 'Tag',
        minWidth: 150,
        sortable: false,
        hideOnMobile: true,
        valueGetter: (_v, row) => tagDisplay(row.common, row.state?.alarmTamper),
        renderCell: ({ row }) => <TagText thing={row} />,
      },
      ...(showLabels
        ? [
            {
              field: 'labels',
              headerName: 'Labels',
              minWidth: 120,
              sortable: false,
              hideOnMobile: true,
              valueGetter: (_v: unknown, row: Thing) => (row.common.labels ?? []).join(', '),
            },
          ]
        : []),
      {
        field: 'zoneName',
        headerName: 'Zone',
        minWidth: 120,
        valueGetter: (_v, row) => row.state?.zoneName ?? '',
      },
      {
        field: 'lastEvent',
        headerName: 'Last Seen',
        minWidth: 170,
        hideOnMobile: true,
        valueGetter: (_v, row) => formatThingDateOrNA(row.state?.lastEvent),
      },
    ],
    [labels.itemName, labels.itemSerial, showLabels],
  );

  const query = useMemo(() => thingsListQuery(siteId, thingClass), [siteId, thingClass]);

  const download = async () => {
    if (!siteId) return;
    setDownloading(true);
    try {
      const blob = await downloadThingsExport({
        site: siteId,
        thingClass,
        search: params.get('search') ?? '',
      });
      saveBlob(blob, `${resource}.xlsx`);
    } catch (err) {
      snackbar.error(`Download failed: ${errorText(err)}`);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <GenericList<Thing>
      key={thingClass}
      title={title}
      name={thingClass}
      query={query}
      columns={columns}
      getRowId={(t) => t._id}
      rowPath={(t) => `${basePath}/${t._id}`}
      addPath={`${basePath}/new`}
      canAdd={perms.can(resource, 'create')}
      canDelete={perms.can(resource, 'delete')}
      onDelete={(t) => remove.mutateAsync(t._id)}
      emptyMessage={`No ${title.toLowerCase()} found`}
      testId={`${resource}-list`}
      actions={
        <Button
          variant="outlined"
          startIcon={<FileDownloadOutlined />}
          onClick={() => void download()}
          disabled={downloading || !siteId}
          data-testid="download-xlsx"
        >
          Download XLSX
        </Button>
      }
    />
  );
}
