/** The server-rendered public pages (HTML with JSON-LD). */
export { renderPage, type PageOutcome } from './render';
