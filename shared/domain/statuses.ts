/** Post statuses this service knows (WordPress's registered ones, minus auto-draft and inherit). */
export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type Status = (typeof STATUSES)[number];
/** Every status but trash: what a list shows an editing role that asks for all (the importers and the export). */
export const LIVE_STATUSES: readonly Status[] = STATUSES.filter((s) => s !== 'trash');
