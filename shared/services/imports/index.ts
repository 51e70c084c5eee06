/** Feed and CSV imports: created, run, re-synced, reported. */
export {
  RESYNC_LEASE_MS,
  createImport,
  deleteImport,
  getImportView,
  listImports,
  runDueImports,
  updateImport,
} from './imports';
