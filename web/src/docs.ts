/**
 * The API explorer: Swagger UI (swagger-ui-dist, loaded by docs/index.html from this origin) on the
 * OpenAPI document of GET /cal/events/v1/doc. The document names the API root the request came in by;
 * behind a CDN that may be another host than the page's, so `servers` is pointed at this origin and
 * "Try it out" calls go to the same API the page shows. A token pasted on the calendar page (kept for
 * the tab) is offered as the bearer token.
 */
import { API_ROOT, token } from './api';

type SwaggerUIBundleType = ((options: Record<string, unknown>) => {
  preauthorizeApiKey: (name: string, value: string) => void;
}) & { presets: { apis: unknown } };

async function start(): Promise<void> {
  const status = document.getElementById('status')!;
  const SwaggerUIBundle = (window as unknown as { SwaggerUIBundle?: SwaggerUIBundleType }).SwaggerUIBundle;
  if (!SwaggerUIBundle) {
    status.textContent = 'Swagger UI did not load.';
    return;
  }
  status.textContent = 'Loading the OpenAPI document…';
  const res = await fetch(`${API_ROOT}/doc`, { headers: { accept: 'application/json' } });
  if (!res.ok) {
    status.textContent = `Could not load ${API_ROOT}/doc: HTTP ${res.status}`;
    return;
  }
  const spec = (await res.json()) as Record<string, unknown>;
  spec.servers = [{ url: `${location.origin}${API_ROOT}/`, description: 'This site' }];
  const ui = SwaggerUIBundle({
    spec,
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    deepLinking: true,
    docExpansion: 'list',
    tryItOutEnabled: false,
    persistAuthorization: false,
    onComplete: () => {
      status.textContent = '';
      const t = token.get();
      if (t) {
        const schemes = Object.keys(
          ((spec.components as Record<string, unknown> | undefined)?.securitySchemes as object | undefined) ??
            {},
        );
        for (const name of schemes) ui.preauthorizeApiKey(name, t);
      }
    },
  });
}

start().catch((e: Error) => {
  document.getElementById('status')!.textContent = `The explorer failed to start: ${e.message}`;
});
