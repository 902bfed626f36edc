import { toApiError } from '../api/client';

/** Saves a downloaded file (a Blob from the generated client) under a file name. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file answer of the generated client (parseAs 'blob') as a Blob, or the call's ApiError. */
export async function blobFrom(
  call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
): Promise<Blob> {
  const { data, error, response } = await call;
  if (!response.ok || !(data instanceof Blob)) throw toApiError(response, error);
  return data;
}
