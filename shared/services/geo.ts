import { getPosts } from '../repositories/posts';

export interface Point {
  lat: number;
  lng: number;
}

/** Great-circle distance in kilometres. */
export function haversineKm(a: Point, b: Point): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Coordinates of the venues that have them. */
export async function venueCoordinates(ids: number[]): Promise<Map<number, Point>> {
  const venues = await getPosts<{ geo_lat?: number; geo_lng?: number }>([...new Set(ids)]);
  const out = new Map<number, Point>();
  for (const [id, v] of venues)
    if (v.type === 'venue' && typeof v.data.geo_lat === 'number' && typeof v.data.geo_lng === 'number')
      out.set(id, { lat: v.data.geo_lat, lng: v.data.geo_lng });
  return out;
}
