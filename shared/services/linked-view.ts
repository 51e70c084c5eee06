// Placeholder wiring until the venue and organizer services land.
import type { User } from '../http/auth';
import type { PostRecord } from '../repositories/posts';
export const linkedPostView = (p: PostRecord, _o: { root: string; single: boolean }) => ({ id: p.id });
export const linkedPostJsonLd = (p: PostRecord) => ({ '@type': p.type === 'venue' ? 'Place' : 'Person', name: p.title });
export async function findOrCreateInline(_t: 'venue' | 'organizer', _b: Record<string, unknown>, _u: User, _p: string): Promise<number> {
  throw new Error('not wired');
}
