import { deleteConfirmMessage } from '../../components/ConfirmDialog';
import { useCategoryUsage } from './queries';

/** The delete confirmation, naming how many images lose the category. */
export function CategoryDeleteMessage({ id }: { id: string }) {
  const usage = useCategoryUsage(id);
  const images = usage.data?.images ?? 0;
  return (
    <span data-testid="category-usage">
      {usage.isPending
        ? 'Counting the images that use this category…'
        : images > 0
          ? `${images} image(s) use this category; deleting it removes it from them. ` +
            deleteConfirmMessage('category')
          : deleteConfirmMessage('category')}
    </span>
  );
}
