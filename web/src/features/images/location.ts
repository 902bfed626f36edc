import type { ImageMeta } from '../../api/types';

/** [longitude, latitude], or null when the image has none ([0, 0]). */
export function locationOf(image: Pick<ImageMeta, 'location'>): [number, number] | null {
  const [longitude = 0, latitude = 0] = image.location?.coordinates ?? [];
  return longitude === 0 && latitude === 0 ? null : [longitude, latitude];
}

/** A maps-service link for a location. */
export function mapsUrl([longitude, latitude]: [number, number]): string {
  return `https://www.google.com/maps/search/?api=1&query=${latitude},${longitude}`;
}

/** The device's position as [longitude, latitude], or null when it cannot tell. */
export function devicePosition(timeoutMs = 8000): Promise<[number, number] | null> {
  if (!('geolocation' in navigator)) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) => resolve([p.coords.longitude, p.coords.latitude]),
      () => resolve(null),
      { timeout: timeoutMs, maximumAge: 60_000 },
    );
  });
}
