import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { useLocation, useParams } from 'react-router';
import type { Thing, ThingCreate } from '../../api/types';
import { ChipsInput, chipValues } from '../../components/ChipsInput';
import { DetailForm, type TabDef } from '../../components/DetailForm';
import { LoadGate } from '../../components/LoadGate';
import { Loading } from '../../components/Loading';
import { SiteReady } from '../../components/SiteReady';
import { ALL_SITES_ID } from '../../constants';
import { useSiteSelection } from '../access/SiteContext';
import { useSiteLabels } from '../settings/queries';
import { usePermissions } from '../access/queries';
import { photoTab } from './photoTab';
import {
  fetchThing,
  useCreateThing,
  useDeleteThing,
  useThing,
  useThingClasses,
  useUpdateThing,
} from './queries';
import { StatePanel } from './StatePanel';
import { asThingClass, classOfPath, listPathOf, type ThingClass } from './thingLogic';

// The tabs after the first load in their own chunks, while the first one shows.
const EventsTable = lazy(() =>
  import('../events/EventsTable').then((m) => ({ default: m.EventsTable })),
);
const ZoneHistoryTab = lazy(() =>
  import('./ZoneHistoryTab').then((m) => ({ default: m.ZoneHistoryTab })),
);
const DataTab = lazy(() => import('./DataTab').then((m) => ({ default: m.DataTab })));
const RelationsTab = lazy(() =>
  import('./RelationsTab').then((m) => ({ default: m.RelationsTab })),
);

function Deferred({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

interface ThingForm {
  name: string;
  description: string;
  serial: string;
  thingClass: string;
  site: string;
  tag1: string;
  tag2: string;
  tags: string[];
  categories: string[];
  labels: string[];
}

function thingToForm(thing: Thing | undefined, thingClass: ThingClass, site: string): ThingForm {
  const c = thing?.common;
  return {
    name: c?.name ?? '',
    description: c?.description ?? '',
    serial: c?.serial ?? '',
    thingClass: c?.class ?? thingClass,
    site: thing?.site ?? site,
    tag1: c?.tag1 ?? '',
    tag2: c?.tag2 ?? '',
    tags: c?.tags ?? [],
    categories: c?.categories ?? [],
    labels: c?.labels ?? [],
  };
}

/** The edited fields of common, trimmed. */
function editedCommon(form: ThingForm) {
  return {
    name: form.name.trim(),
    description: form.description,
    serial: form.serial.trim(),
    tag1: form.tag1.trim(),
    tag2: form.tag2.trim(),
    tags: form.tags,
    categories: form.categories,
    labels: form.labels,
  };
}

const chips = (name: 'tags' | 'categories' | 'labels', label: string) => ({
  name,
  label,
  kind: 'custom' as const,
  render: ({
    value,
    onChange,
    readOnly,
  }: {
    value: unknown;
    onChange: (v: unknown) => void;
    readOnly: boolean;
  }) => (
    <ChipsInput label={label} value={chipValues(value)} onChange={onChange} disabled={readOnly} />
  ),
});

function ThingEditor({
  id,
  thing,
  routeClass,
}: {
  id: string;
  thing: Thing | undefined;
  routeClass: ThingClass;
}) {
  const isNew = id === 'new';
  const perms = usePermissions();
  const { siteId, isAllSites, sites } = useSiteSelection();
  const labels = useSiteLabels(thing?.site ?? siteId);
  const classes = useThingClasses();
  const create = useCreateThing();
  const update = useUpdateThing();
  const remove = useDeleteThing();
  // The live copy: clearing the alarm or linking updates it while the form stays.
  const live = useThing(id).data ?? thing;
  const thingClass: ThingClass = thing?.common.class ?? routeClass;
  const resource = thingClass === 'worker' ? 'workers' : 'items';
  const canModify = perms.can(resource, 'modify');
  const className = thingClass === 'worker' ? 'Worker' : 'Item';

  const classOptions = useMemo(
    () =>
      (
        classes.data ?? [
          { id: 'item', name: 'Item' },
          { id: 'worker', name: 'Worker' },
        ]
      ).map((c) => ({ value: c.id, label: c.name })),
    [classes.data],
  );
  const siteOptions = useMemo(
    () => sites.filter((s) => s.id !== ALL_SITES_ID).map((s) => ({ value: s.id, label: s.name })),
    [sites],
  );
  const defaultSite = isAllSites ? '' : (siteId ?? '');

  const tabs: TabDef<ThingForm>[] = [
    {
      label: 'Basic',
      fields: [
        { name: 'name', label: labels.itemName, required: true },
        { name: 'serial', label: labels.itemSerial },
        { name: 'description', label: 'Description', kind: 'textarea', wide: true },
        { name: 'tag1', label: 'Tag 1' },
        { name: 'tag2', label: 'Tag 2' },
        { ...chips('tags', 'Tags'), wide: true },
        chips('categories', 'Categories'),
        chips('labels', 'Labels'),
        {
          name: 'thingClass',
          label: 'Class',
          kind: 'select',
          required: true,
          options: classOptions,
          // The class of an existing thing cannot change.
          readOnly: !isNew,
        },
        {
          name: 'site',
          label: 'Site',
          kind: 'select',
          required: true,
          options: siteOptions,
          hidden: !isNew || !isAllSites,
        },
      ],
      content: live ? <StatePanel thing={live} canModify={canModify} /> : null,
    },
    {
      label: 'Events',
      hidden: !live,
      content: live ? (
        <Deferred>
          <EventsTable filter={{ thing: live._id, site: live.site }} label="Thing events" />
        </Deferred>
      ) : null,
    },
    {
      label: 'Zone History',
      hidden: !live,
      content: live ? (
        <Deferred>
          <ZoneHistoryTab thing={live} />
        </Deferred>
      ) : null,
    },
    photoTab<ThingForm>(live, className.toLowerCase()),
    {
      label: 'Data',
      hidden: !live,
      content: live ? (
        <Deferred>
          <DataTab thing={live} />
        </Deferred>
      ) : null,
    },
    {
      label: 'Parents/Children',
      hidden: !live,
      content: live ? (
        <Deferred>
          <RelationsTab thing={live} canModify={canModify} />
        </Deferred>
      ) : null,
    },
  ];

  const onSave = async (values: ThingForm): Promise<Thing> => {
    if (isNew) {
      const body: ThingCreate = {
        site: values.site,
        common: { ...editedCommon(values), class: asThingClass(values.thingClass) },
        data: {},
      };
      return create.mutateAsync(body);
    }
    // Merged into a fresh copy, so links made meanwhile are kept.
    const fresh = (await fetchThing(id)) ?? live;
    if (!fresh) throw new Error('The thing is not loaded');
    return update.mutateAsync({
      ...fresh,
      common: { ...fresh.common, ...editedCommon(values) },
    });
  };

  return (
    <DetailForm<ThingForm, Thing>
      name={thingClass}
      title={isNew ? `Add ${className}` : thing?.common.name || className}
      id={id}
      tabs={tabs}
      initialValues={thingToForm(thing, routeClass, defaultSite)}
      onSave={onSave}
      onDelete={() => remove.mutateAsync(id)}
      parentPath={listPathOf(thingClass)}
      canModify={canModify}
      canCreate={perms.can(resource, 'create')}
      canDelete={perms.can(resource, 'delete')}
    />
  );
}

/** items/:id, workers/:id and things/:id; 'new' creates a thing of the route's class. */
export default function ThingEditPage() {
  const { id = 'new' } = useParams();
  const { pathname } = useLocation();
  const routeClass = classOfPath(pathname) ?? 'item';
  const query = useThing(id);
  if (id === 'new') {
    return (
      <SiteReady>
        <ThingEditor key={`new-${routeClass}`} id={id} thing={undefined} routeClass={routeClass} />
      </SiteReady>
    );
  }
  return (
    <LoadGate query={query} name={routeClass}>
      {(thing) => <ThingEditor key={thing._id} id={id} thing={thing} routeClass={routeClass} />}
    </LoadGate>
  );
}
