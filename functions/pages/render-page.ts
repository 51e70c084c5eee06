import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { pageFailure, pageResponse } from '../../shared/http/page-reply';
import { renderPage } from '../../shared/services/pages';
import { calendarShell } from './shell';

/**
 * GET /event/{slug}/, /venue/{slug}/, /organizer/{slug}/, /events/category/{path}/, /tag/{slug}/: the
 * public pages, server-rendered. Not an API operation: no token, no JSON, no middleware beyond this.
 */
export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  try {
    return pageResponse(await renderPage(event.rawPath ?? '/', calendarShell()), event);
  } catch (e) {
    return pageFailure(e);
  }
}
