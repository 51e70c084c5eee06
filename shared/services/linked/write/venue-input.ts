import { invalidParam } from '../../../domain/errors';
import { plainText } from '../../../domain/text';
import { httpUrl } from '../../../domain/web-input';
import { compact, type LinkedPostType, nextOptional } from '..';
import { TEXT, type VenueBody, type VenueData, venueView } from '..';

const text = (v: unknown) => plainText(String(v)) || undefined;

/** How venue bodies become a venue's `data` (the write path; reads use venueView alone). */
export const venueType: LinkedPostType<VenueData, VenueBody> = {
  ...venueView,
  dataKeys: [...TEXT, 'website', 'image', 'show_map', 'show_map_link', 'geo_lat', 'geo_lng'],

  data(body, sent, prev) {
    const flag = (k: 'show_map' | 'show_map_link') => (sent.has(k) ? body[k] !== false : (prev?.[k] ?? true));
    const coordinate = (k: 'geo_lat' | 'geo_lng') => nextOptional(body, sent, k, prev?.[k], Number);
    const data: VenueData = {
      ...Object.fromEntries(TEXT.map((k) => [k, nextOptional(body, sent, k, prev?.[k], text)])),
      website: nextOptional(body, sent, 'website', prev?.website, (v) => httpUrl('website', String(v))),
      show_map: flag('show_map'),
      show_map_link: flag('show_map_link'),
      geo_lat: coordinate('geo_lat'),
      geo_lng: coordinate('geo_lng'),
    };
    // A lone coordinate would place the venue nowhere; the geoloc filters need both.
    if ((data.geo_lat === undefined) !== (data.geo_lng === undefined)) {
      const missing = data.geo_lat === undefined ? 'geo_lat' : 'geo_lng';
      throw invalidParam(
        missing,
        'geo_lat and geo_lng must be set (or cleared) together.',
        'rest_missing_coordinate',
      );
    }
    return compact(data);
  },
};
