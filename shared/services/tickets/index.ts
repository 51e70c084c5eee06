/** Tickets and attendees (issue 42). */
export * from './tickets';
