/** Post statuses this service knows (WordPress's registered ones, minus auto-draft and inherit). */
export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type Status = (typeof STATUSES)[number];
