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

/** A venue's point, when it has both coordinates. */
export function pointOf(data: { geo_lat?: unknown; geo_lng?: unknown }): Point | undefined {
  return typeof data.geo_lat === 'number' && typeof data.geo_lng === 'number'
    ? { lat: data.geo_lat, lng: data.geo_lng }
    : undefined;
}
