import type { ImageCategory } from '../../api/types';
import { GenericList, type ListColumn } from '../../components/GenericList';
import { usePermissions } from '../access/queries';
import { CategoryDeleteMessage } from './CategoryDeleteMessage';
import { categoriesListQuery, useDeleteCategory } from './queries';

const columns: ListColumn<ImageCategory>[] = [
  { field: 'name', headerName: 'Name', minWidth: 140 },
  { field: 'description', headerName: 'Description', flex: 2, hideOnMobile: true },
  {
    field: 'hidden',
    headerName: 'Hidden',
    sortable: false,
    width: 100,
    valueFormatter: (value: boolean) => (value ? 'Yes' : ''),
  },
];

export default function CategoriesPage() {
  const perms = usePermissions();
  const remove = useDeleteCategory();
  return (
    <GenericList<ImageCategory>
      title="Categories"
      name="category"
      query={categoriesListQuery}
      columns={columns}
      getRowId={(c) => c.id}
      rowPath={(c) => `/categories/${c.id}`}
      addPath="/categories/new"
      canAdd={perms.can('image-categories', 'create')}
      canDelete={perms.can('image-categories', 'delete')}
      onDelete={(c) => remove.mutateAsync(c.id)}
      deleteMessage={(c) => <CategoryDeleteMessage id={c.id} />}
      emptyMessage="No categories found"
      testId="categories-list"
    />
  );
}
