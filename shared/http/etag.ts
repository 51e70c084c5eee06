import { createHash } from 'node:crypto';
import { type Precondition, type Revision, revisionOf } from '../domain/revisions';
import type { Reply } from './respond';

/**
 * Entity tags of JSON responses (RFC 9110 §8.8.3), all strong:
 * - a record's view: `"<id>-<version>-<digest>"`. The digest (of the serialized body) changes with
 *   anything the caller sees, embedded records and per-caller fields included, so If-None-Match is
 *   always right; the ID and version name the stored state, so If-Match is checked against the
 *   version the write is conditioned on (domain/revisions.ts), atomically;
 * - anything else (lists): `"<digest>"`.
 */

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

export function entityTag(body: unknown, serialized: string): string {
  const r = revisionOf(body);
  return r ? `"${r.id}-${r.version}-${digest(serialized)}"` : `"${digest(serialized)}"`;
}

/** The reply with its ETag (for replies stored as they are, like idempotent creates' answers). */
export function withEntityTag<B>(reply: Reply<B>): Reply<B> {
  if (reply.headers?.ETag) return reply;
  return { ...reply, headers: { ...reply.headers, ETag: entityTag(reply.body, JSON.stringify(reply.body)) } };
}

const REVISION_TAG = /^"(\d+)-(\d+)(?:-[^"]*)?"$/;

/**
 * An `If-Match` header as a precondition: `*`, or the revisions its strong tags name. Weak tags and
 * tags of no record never match (a strong comparison, §13.1.1), so they fail with 412.
 */
export function parseIfMatch(header: string | undefined): Precondition | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return { any: true };
  const revisions: Revision[] = [];
  for (const tag of header.match(/(?:W\/)?"[^"]*"/g) ?? []) {
    const m = REVISION_TAG.exec(tag);
    if (m) revisions.push({ id: Number(m[1]), version: Number(m[2]) });
  }
  return { any: false, revisions };
}
