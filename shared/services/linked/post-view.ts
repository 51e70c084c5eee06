import { globalId, publicUrl } from '../../domain/post-rules';
import type { PostRecord } from '../../domain/records';
import { withRevision } from '../../domain/revisions';
import { imageView } from '../../domain/html';
import type { Infer } from '../../schemas/infer';
import type { organizerSchema } from '../../schemas/organizer';
import type { venueSchema } from '../../schemas/venue';
import type { LinkedData, LinkedPostView } from './post-type';

/**
 * PHP `array_filter` emptiness (reference §3.2): "", "0", false, null and [] go. Numbers stay: the
 * only numeric keys are the ID and coordinates, and a venue on the equator keeps its latitude.
 */
const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  v === '0' ||
  v === false ||
  (Array.isArray(v) && v.length === 0);

/**
 * A venue or organizer as the API shows it. Built key by key (empty ones dropped), so typed as what
 * both contract schemas require.
 */
export type LinkedView = Infer<typeof venueSchema> & Infer<typeof organizerSchema>;

/**
 * A venue or organizer as every route returns it (reference §3.2 / §3.3): the common head, the type's
 * own fields and, on single GETs, `json_ld`, with empty values dropped; then the keys that are always
 * there. The name is kept even when it reads "0".
 */
export function linkedView<D extends LinkedData>(
  def: LinkedPostView<D>,
  p: PostRecord<D>,
  single: boolean,
): LinkedView {
  const url = publicUrl(def.type, p.slug);
  const head: Record<string, unknown> = {
    id: p.id,
    author: p.author,
    status: p.status,
    date: p.date,
    date_utc: p.date_utc,
    modified: p.modified,
    modified_utc: p.modified_utc,
    url,
    [def.type]: p.title,
    description: p.description,
    excerpt: p.excerpt,
    slug: p.slug,
    image: p.data.image ? imageView(p.data.image) : undefined,
    ...def.fields(p),
    json_ld: single ? def.jsonLd(p, url) : undefined,
  };
  const kept = Object.entries(head).filter(([k, v]) => k === def.type || !isEmpty(v));
  return withRevision(
    {
      ...(Object.fromEntries(kept) as unknown as LinkedView),
      ...def.always(p),
      global_id: globalId(p.id),
      global_id_lineage: [globalId(p.id)],
    },
    p,
  );
}
