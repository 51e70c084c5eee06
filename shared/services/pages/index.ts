/** The server-rendered public pages (HTML with JSON-LD), and the tickets' pages (docs/tickets.md, "Pages"). */
export { renderPage, type PageOutcome } from './render';
export {
  attendeeAnswer,
  cancelFromPage,
  crossSiteAnswer,
  notFoundPage,
  type PageAnswer,
  registerFromPage,
} from './ticket-pages';
export { readRegistration } from './registration-form';
