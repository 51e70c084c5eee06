/** The change feed (GET /changes). */
export { listChanges } from './change-feed';
