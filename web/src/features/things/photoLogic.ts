import { errorText, failureText } from '../../api/client';

/** The image category the thing Photo tab files photos under. */
export const THINGS_CATEGORY = 'Things';
const THINGS_CATEGORY_DESCRIPTION = 'Photos of items and workers';

export const GET_CATEGORIES_FAILED = 'Failed to get categories';
export const CREATE_CATEGORY_FAILED = 'Failed to create category';
export const DELETE_IMAGE_FAILED = 'Failed to delete image';

/** A failure with the message the Photo tab shows as it is. */
export class PhotoTabError extends Error {}

interface NamedCategory {
  id: string;
  name: string;
}

/** The Things category among these: the exact name first, else the same name in other case. */
export function findThingsCategory(categories: NamedCategory[]): string | undefined {
  const exact = categories.find((c) => c.name.trim() === THINGS_CATEGORY);
  if (exact) return exact.id;
  const wanted = THINGS_CATEGORY.toLowerCase();
  return categories.find((c) => c.name.trim().toLowerCase() === wanted)?.id;
}

/**
 * The id of the Things category, created when it cannot be found. Throws PhotoTabError with
 * 'Failed to get categories' or 'Failed to create category'.
 */
export async function ensureThingsCategory(
  list: () => Promise<NamedCategory[]>,
  create: (body: { name: string; description: string; hidden: boolean }) => Promise<NamedCategory>,
): Promise<string> {
  let categories: NamedCategory[];
  try {
    categories = await list();
  } catch (err) {
    throw new PhotoTabError(failureText(GET_CATEGORIES_FAILED, err));
  }
  const found = findThingsCategory(categories);
  if (found) return found;
  try {
    const created = await create({
      name: THINGS_CATEGORY,
      description: THINGS_CATEGORY_DESCRIPTION,
      hidden: false,
    });
    return created.id;
  } catch (err) {
    throw new PhotoTabError(failureText(CREATE_CATEGORY_FAILED, err));
  }
}

/** 'Failed to save photo - ' and the server's message. */
export function savePhotoFailed(err: unknown): string {
  return `Failed to save photo - ${errorText(err)}`;
}

/** What the attach button says while photos go up: '42%', or '2 of 3 · 42%'. */
export function uploadProgressText(index: number, count: number, percent: number): string {
  const done = `${Math.max(0, Math.min(100, Math.round(percent)))}%`;
  return count > 1 ? `${index + 1} of ${count} · ${done}` : done;
}
