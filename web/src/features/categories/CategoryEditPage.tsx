import { useParams } from 'react-router';
import type { ImageCategory } from '../../api/types';
import { DetailForm, type TabDef } from '../../components/DetailForm';
import { LoadGate } from '../../components/LoadGate';
import { QrCode } from '../../components/QrCode';
import { usePermissions } from '../access/queries';
import { CategoryDeleteMessage } from './CategoryDeleteMessage';
import { useCategory, useDeleteCategory, useSaveCategory } from './queries';

const CATEGORY_QR_PREFIX = 'cat:';

interface CategoryForm {
  name: string;
  description: string;
  hidden: boolean;
}

function CategoryEditor({ id, category }: { id: string; category: ImageCategory | undefined }) {
  const perms = usePermissions();
  const save = useSaveCategory();
  const remove = useDeleteCategory();
  const isNew = id === 'new';
  const tabs: TabDef<CategoryForm>[] = [
    {
      label: 'Basic',
      fields: [
        { name: 'name', label: 'Name', required: true },
        { name: 'description', label: 'Description', kind: 'textarea', wide: true },
        { name: 'hidden', label: 'Hidden', kind: 'checkbox' },
      ],
    },
    {
      label: 'QR Code',
      hidden: isNew || !category,
      content: category ? (
        <QrCode value={`${CATEGORY_QR_PREFIX}${category.id}`} label={category.name} />
      ) : null,
    },
  ];
  return (
    <DetailForm<CategoryForm, ImageCategory>
      name="category"
      title={isNew ? 'Add Category' : (category?.name ?? 'Category')}
      id={id}
      tabs={tabs}
      initialValues={{
        name: category?.name ?? '',
        description: category?.description ?? '',
        hidden: category?.hidden ?? false,
      }}
      onSave={(values) =>
        save.mutateAsync({
          id,
          body: {
            name: values.name.trim(),
            description: values.description,
            hidden: values.hidden,
          },
        })
      }
      onDelete={() => remove.mutateAsync(id)}
      deleteMessage={<CategoryDeleteMessage id={id} />}
      parentPath="/categories"
      canModify={perms.can('image-categories', 'modify')}
      canCreate={perms.can('image-categories', 'create')}
      canDelete={perms.can('image-categories', 'delete')}
    />
  );
}

export default function CategoryEditPage() {
  const { id = 'new' } = useParams();
  const query = useCategory(id);
  if (id === 'new') return <CategoryEditor key="new" id={id} category={undefined} />;
  return (
    <LoadGate query={query} name="category">
      {(category) => <CategoryEditor key={category.id} id={id} category={category} />}
    </LoadGate>
  );
}
