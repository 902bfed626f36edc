import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import {
  CREATE_CATEGORY_FAILED,
  GET_CATEGORIES_FAILED,
  PhotoTabError,
  THINGS_CATEGORY,
  ensureThingsCategory,
  findThingsCategory,
  savePhotoFailed,
  uploadProgressText,
} from './photoLogic';

const quiet = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);

describe('the Things category', () => {
  it('is found by name, the exact spelling first, else ignoring case', () => {
    expect(findThingsCategory([{ id: 'a', name: 'Damage' }])).toBeUndefined();
    expect(
      findThingsCategory([
        { id: 'a', name: 'things' },
        { id: 'b', name: 'Things' },
      ]),
    ).toBe('b');
    expect(findThingsCategory([{ id: 'c', name: ' THINGS ' }])).toBe('c');
  });

  it('is used when it exists, without creating another', async () => {
    const create = vi.fn();
    const id = await ensureThingsCategory(
      () => Promise.resolve([{ id: 't1', name: 'Things' }]),
      create,
    );
    expect(id).toBe('t1');
    expect(create).not.toHaveBeenCalled();
  });

  it('is created when it cannot be found', async () => {
    const create = vi.fn((body: { name: string }) =>
      Promise.resolve({ id: 'new', name: body.name }),
    );
    const id = await ensureThingsCategory(
      () => Promise.resolve([{ id: 'd', name: 'Damage' }]),
      create,
    );
    expect(id).toBe('new');
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ name: THINGS_CATEGORY }));
  });

  it("says 'Failed to get categories' when the list fails", async () => {
    const spy = quiet();
    const create = vi.fn();
    const failing = ensureThingsCategory(
      () => Promise.reject(new ApiError(500, '', 'boom', 'Internal Server Error')),
      create,
    );
    await expect(failing).rejects.toThrow(new PhotoTabError(`${GET_CATEGORIES_FAILED}: boom`));
    expect(create).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it("says 'Failed to create category' when creating fails", async () => {
    const spy = quiet();
    const failing = ensureThingsCategory(
      () => Promise.resolve([]),
      () => Promise.reject(new ApiError(403, '', 'Forbidden', 'Forbidden')),
    );
    await expect(failing).rejects.toThrow(
      new PhotoTabError(`${CREATE_CATEGORY_FAILED}: Forbidden`),
    );
    spy.mockRestore();
  });
});

describe('photo messages', () => {
  it("puts the server's message after 'Failed to save photo - '", () => {
    const err = new ApiError(415, 'unsupported type', 'Not a supported image type', '');
    expect(savePhotoFailed(err)).toBe('Failed to save photo - Not a supported image type');
  });

  it('shows the percentage, and which photo when there are several', () => {
    expect(uploadProgressText(0, 1, 41.6)).toBe('42%');
    expect(uploadProgressText(1, 3, 100)).toBe('2 of 3 · 100%');
    expect(uploadProgressText(0, 2, 140)).toBe('1 of 2 · 100%');
  });
});
