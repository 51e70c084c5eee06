import { nowStamps } from '../../domain/clock';
import type { PostHead } from '../../domain/records';
import type { User } from '../../domain/roles';
import type { AttendeeRecord, TicketRecord } from '../../domain/tickets';
import { getPostHead } from '../../repositories/posts';
import { attendeeView, ticketView } from './ticket-view';

/** Who asks and how the tickets' answers are built for them: the parts every use case shares. */

export interface TicketCaller {
  user: User | null;
  root: string;
  /** The client's address (API Gateway's sourceIp): anonymous registrations are limited per address. */
  sourceIp?: string;
}

export const hostOf = (root: string) => {
  try {
    return new URL(root).host;
  } catch {
    return 'localhost';
  }
};

/** Site-local now, `Y-m-d H:i:s`: what sales windows compare with. */
export const nowWall = () => nowStamps().modified;

export async function eventOf(postId: number): Promise<PostHead | undefined> {
  const head = await getPostHead(postId);
  return head?.type === 'event' ? head : undefined;
}

/**
 * An attendee as answered; `private`: with the e-mail address and the answers to the ticket's
 * questions (those who manage the event's attendees, and the registrant's own answers).
 */
export const attendeeOut = (a: AttendeeRecord, c: TicketCaller, isPrivate: boolean) =>
  attendeeView(a, { root: c.root, host: hostOf(c.root), withEmail: isPrivate });

/** A ticket as answered, with its attendees (not cancelled) when given (managers only). */
export const ticketOut = (t: TicketRecord, c: TicketCaller, attendees?: AttendeeRecord[]) =>
  ticketView(t, {
    root: c.root,
    host: hostOf(c.root),
    nowWall: nowWall(),
    attendees: attendees?.filter((a) => a.status !== 'cancelled').map((a) => attendeeOut(a, c, true)),
  });
