/**
 * What services commit and page through: the writes the repositories plan, committed in one
 * transaction, and the paged reads they answer (shared/db/ stays behind the repositories).
 */
export { commit, commitAll, type PlannedWrite } from '../db/transact';
export { collect, type PageSize } from '../db/query';
