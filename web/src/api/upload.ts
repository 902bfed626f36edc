import { toApiError } from './client';

/**
 * Sends a multipart form and reports upload progress (0-100) as the bytes go out: fetch
 * tells nothing of an upload's progress, so this is a browser request. It goes as the
 * generated client's calls do (same origin, the session cookie); the answer or the
 * server's error comes back as theirs do (ApiError).
 */
export function sendForm<T>(
  method: 'POST' | 'PUT',
  url: string,
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.withCredentials = true;
    request.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    // Everything is sent: what is left is the server's work.
    request.upload.onload = () => onProgress(100);
    request.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = request.responseText;
      }
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else
        reject(
          toApiError(
            new Response(null, { status: request.status, statusText: request.statusText }),
            body,
          ),
        );
    };
    request.onerror = () => reject(new Error('Network error'));
    request.send(form);
  });
}
