/**
 * Whether a form post came from another site (docs/tickets.md, "Pages"): the pages' forms are taken
 * from the site's own pages only, so no other site can make its visitors' browsers register (from their
 * addresses, past the limits per address) or send anything else. Checked on what browsers say of a
 * request's origin rather than a token in the form: the event page is cached for every visitor alike
 * (CloudFront, a minute), so a token in it would be everybody's, and the pages keep no session.
 *
 * - `Sec-Fetch-Site` (every current browser sends it): only `same-origin` (or `none`, a navigation
 *   the user made) passes; `same-site` (another host of the domain) and `cross-site` do not.
 * - Without it, `Origin` (browsers send it with every POST): it must name the host the request came
 *   to (`X-Forwarded-Host`, which CloudFront's viewer-request function sets to the viewer's host, else
 *   `Host`); `null` (a sandboxed or privacy-redirected form) does not pass.
 * - Without either, the request is not a browser's form post of another site (a script, curl): it
 *   passes, as it could reach the JSON API alike.
 */
export function isCrossSite(headers: Record<string, string | undefined>): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = headers.origin;
  if (origin === undefined) return false;
  const host = headers['x-forwarded-host'] ?? headers.host;
  try {
    return origin === 'null' || !host || new URL(origin).host !== host.toLowerCase();
  } catch {
    return true;
  }
}
