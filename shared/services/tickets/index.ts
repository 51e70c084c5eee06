/** Tickets and attendees (issue 42). */
export * from './tickets';
export { attendeesCsv, type AttendeeQuery, listAttendees, listTickets, type TicketQuery } from './lists';
export { type MailRun, sendDueMail } from './mail-sender';
export { type MailTransport, sesTransport } from './mail-transport';
export { checkInByCode } from './qr-check-in';
export { checkInQrSvg } from './check-in-code';
export { ticketsRoot } from './confirmation';
